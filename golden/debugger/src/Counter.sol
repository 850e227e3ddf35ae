// SPDX-License-Identifier: MIT
pragma solidity 0.8.24;

/// The one contract compiled by solc 0.8.24 (its pragma is pinned); the others need 0.8.30.
contract Counter {
    uint256 public count;
    mapping(address => uint256) public hits;

    event Hit(address indexed by, uint256 count);

    function hit(uint256 by) external returns (uint256) {
        _bump(msg.sender, by);
        emit Hit(msg.sender, count);
        return count;
    }

    function _bump(address who, uint256 by) internal {
        hits[who] += 1;
        count += by;
    }
}
