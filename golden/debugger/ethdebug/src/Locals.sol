// SPDX-License-Identifier: MIT
pragma solidity ^0.8.29;

/// Built by solc with its experimental ethdebug output (golden/debugger/README.md): locals in
/// internal functions, a loop, a require.
contract Locals {
    uint256 public total;

    function add(uint256 x, uint256 y) external returns (uint256 sum) {
        uint256 doubled = _double(x);
        sum = doubled + y;
        require(sum < 1000, "Locals: too much");
        total += sum;
    }

    function _double(uint256 v) internal pure returns (uint256 r) {
        uint256 i = 0;
        for (; i < 2; i++) r += v;
    }
}
