// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The ERC-20 share token of a constant-product or Solidly pool (18 decimals), as the
/// stand-in pools mint and burn it. Name and symbol are set once by the pool (clones have no
/// constructor).
abstract contract LpToken {
    string private _name;
    string private _symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error LpInsufficientBalance(address account, uint256 balance, uint256 needed);
    error LpInsufficientAllowance(address spender, uint256 allowance, uint256 needed);

    function name() public view returns (string memory) {
        return _name;
    }

    function symbol() public view returns (string memory) {
        return _symbol;
    }

    function decimals() public pure returns (uint8) {
        return 18;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert LpInsufficientAllowance(msg.sender, allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _setNameAndSymbol(string memory name_, string memory symbol_) internal {
        _name = name_;
        _symbol = symbol_;
    }

    function _transfer(address from, address to, uint256 value) private {
        uint256 balance = balanceOf[from];
        if (balance < value) revert LpInsufficientBalance(from, balance, value);
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function _burn(address from, uint256 value) internal {
        uint256 balance = balanceOf[from];
        if (balance < value) revert LpInsufficientBalance(from, balance, value);
        balanceOf[from] = balance - value;
        totalSupply -= value;
        emit Transfer(from, address(0), value);
    }
}
