// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// An external library function: Ledger is deployed on its own, linked into Vault's bytecode
/// (a __$…$__ placeholder in the artifacts) and reached by DELEGATECALL, so it writes Vault's storage.
library Ledger {
    struct Book {
        uint256 entries;
        uint256 volume;
    }

    function record(Book storage book, uint256 amount) external returns (uint256) {
        book.entries += 1;
        book.volume += amount;
        return book.entries;
    }
}
