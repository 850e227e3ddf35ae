// SPDX-License-Identifier: MIT
// The vault of the regression scenario: users deposit a token and the vault keeps a fee. Version 1
// of the scenario deploys it with feeBps 250, version 2 with 300 — the same code, another constructor
// argument — so a deposit credits another amount (a storage slot of `deposits`), emits another fee
// (a data word of Deposited) and the vault's `feeBps` slot differs from deployment on.
pragma solidity ^0.8.24;

import {Token} from "./Token.sol";

/// What `Vault.openAccount` creates (a CREATE from a contract): who opened it and their deposit then.
contract Receipt {
    address public holder;
    uint256 public amount;

    constructor(address holder_, uint256 amount_) {
        holder = holder_;
        amount = amount_;
    }
}

contract Vault {
    /// Slot 0: the token deposited (storage rather than immutable, so prestate traces show it).
    Token public token;
    /// Slot 1: the fee kept on each deposit, in basis points.
    uint256 public feeBps;
    /// Slot 2: the fees kept so far.
    uint256 public feesCollected;
    /// Slot 3: each user's deposit after fees (mapping: keccak256(user . 3)).
    mapping(address => uint256) public deposits;

    event Deposited(address indexed user, uint256 amount, uint256 fee);
    event Withdrawn(address indexed user, uint256 amount);
    event AccountOpened(address indexed user, address account);

    constructor(Token token_, uint256 feeBps_) {
        token = token_;
        feeBps = feeBps_;
    }

    /// Pulls `amount` from the sender (who approved the vault) and credits it less the fee.
    function deposit(uint256 amount) external {
        require(token.transferFrom(msg.sender, address(this), amount), "Vault: transfer failed");
        uint256 fee = amount * feeBps / 10_000;
        feesCollected += fee;
        deposits[msg.sender] += amount - fee;
        emit Deposited(msg.sender, amount, fee);
    }

    /// Sends `amount` of the sender's deposit back; reverts with a reason string past it.
    function withdraw(uint256 amount) external {
        require(deposits[msg.sender] >= amount, "Vault: insufficient deposit");
        deposits[msg.sender] -= amount;
        require(token.transfer(msg.sender, amount), "Vault: transfer failed");
        emit Withdrawn(msg.sender, amount);
    }

    /// Creates a Receipt of the sender's deposit (a CREATE from this contract).
    function openAccount() external returns (Receipt account) {
        account = new Receipt(msg.sender, deposits[msg.sender]);
        emit AccountOpened(msg.sender, address(account));
    }
}
