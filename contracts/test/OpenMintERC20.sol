// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title OpenMintERC20
/// @notice Tests only: the ERC-20 bookkeeping shared by the project's odd test tokens (18
/// decimals, open `mint`). Each token says how its transfers behave; this keeps the balances.
abstract contract OpenMintERC20 {
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _approve(address owner, address spender, uint256 value) internal {
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }

    function _spendAllowance(address owner, address spender, uint256 value) internal {
        uint256 allowed = allowance[owner][spender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[owner][spender] = allowed - value;
    }

    /// Moves `value` from `from`, crediting `to` with `value - burned` (a fee on transfer burns).
    function _move(address from, address to, uint256 value, uint256 burned) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value - burned;
        totalSupply -= burned;
        emit Transfer(from, to, value - burned);
    }
}
