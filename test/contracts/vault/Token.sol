// SPDX-License-Identifier: MIT
// A minimal ERC-20 for the vault regression scenario (test/helpers/vaultChain.ts): the owner mints,
// holders transfer and approve, spenders transferFrom. Failures revert with custom errors, so a
// revert in a trace carries a 4-byte selector and its arguments that an ABI decodes.
pragma solidity ^0.8.24;

contract Token {
    string public constant name = "Vault Test Token";
    string public constant symbol = "VTT";
    uint8 public constant decimals = 18;

    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error NotOwner(address caller);
    error InsufficientBalance(address from, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);

    constructor() {
        owner = msg.sender;
    }

    /// Creates `value` tokens for `to`; the owner only.
    function mint(address to, uint256 value) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    function _move(address from, address to, uint256 value) private {
        uint256 balance = balanceOf[from];
        if (balance < value) revert InsufficientBalance(from, balance, value);
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
