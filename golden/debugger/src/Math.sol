// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// Internal functions only: compiled into the contracts that use them (a JUMP, no call).
library Math {
    function mulDiv(uint256 a, uint256 b, uint256 denominator) internal pure returns (uint256) {
        uint256 product = a * b; // checked: Panic(0x11) when it overflows
        return product / denominator;
    }

    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b;
    }
}
