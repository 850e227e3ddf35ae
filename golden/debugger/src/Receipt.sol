// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Created by Vault.openReceipt with `new Receipt(holder, amount)`.
contract Receipt {
    address public immutable vault;
    address public holder;
    uint256 public amount;

    event Issued(address indexed holder, uint256 amount);

    constructor(address holder_, uint256 amount_) {
        vault = msg.sender;
        holder = holder_;
        amount = amount_;
        emit Issued(holder_, amount_);
    }
}
