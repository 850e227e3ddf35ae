// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Ledger} from "./Ledger.sol";
import {Math} from "./Math.sol";
import {Receipt} from "./Receipt.sol";

/// Counter's interface, so that this file does not import a file pinned to another compiler.
interface ICounter {
    function hit(uint256 by) external returns (uint256);
}

contract Vault {
    using Ledger for Ledger.Book;

    error Insufficient(uint256 available, uint256 required);

    event Deposited(address indexed user, uint256 amount, uint256 entries);
    event Withdrawn(address indexed user, uint256 amount, uint256 fee);
    event ReceiptOpened(address indexed user, address receipt);
    event Accrued(uint256 rounds, uint256 total);

    address public immutable owner;
    uint256 public immutable feeBps;

    uint256 public limit;
    uint256 public totalFees;
    uint256 public accrued;
    bool private locked;
    mapping(address => uint256) public balances;
    Ledger.Book public book;

    modifier nonReentrant() {
        require(!locked, "Vault: reentrant");
        locked = true;
        _;
        locked = false;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "Vault: not owner");
        _;
    }

    constructor(uint256 feeBps_, uint256 limit_) {
        owner = msg.sender;
        feeBps = feeBps_;
        limit = limit_;
    }

    function deposit() external payable {
        balances[msg.sender] += msg.value;
        uint256 entries = book.record(msg.value); // DELEGATECALL into the linked Ledger
        emit Deposited(msg.sender, msg.value, entries);
    }

    /// withdraw → _checkLimit → _fee → Math.mulDiv: internal calls four deep.
    function withdraw(uint256 amount) external nonReentrant {
        uint256 fee = _checkLimit(amount);
        _debit(msg.sender, amount + fee);
        totalFees += fee;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "Vault: send failed");
        emit Withdrawn(msg.sender, amount, fee);
    }

    function openReceipt() external returns (Receipt receipt) {
        receipt = new Receipt(msg.sender, balances[msg.sender]);
        emit ReceiptOpened(msg.sender, address(receipt));
    }

    function accrue(uint256 rounds) external returns (uint256 total) {
        total = accrued;
        for (uint256 i = 0; i < rounds; i++) {
            total += Math.min(i, 7);
        }
        accrued = total;
        emit Accrued(rounds, total);
    }

    function poke(ICounter counter, uint256 by) external returns (uint256) {
        return counter.hit(by);
    }

    function setLimit(uint256 limit_) external onlyOwner {
        limit = limit_;
    }

    function _checkLimit(uint256 amount) internal view returns (uint256 fee) {
        fee = _fee(amount);
        require(amount + fee <= limit, "Vault: over limit");
    }

    function _fee(uint256 amount) internal view returns (uint256) {
        return Math.mulDiv(amount, feeBps, 10_000);
    }

    function _debit(address user, uint256 amount) internal {
        uint256 available = balances[user];
        if (available < amount) revert Insufficient(available, amount);
        balances[user] = available - amount;
    }
}
