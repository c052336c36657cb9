// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IERC20Transfer {
    function transfer(address to, uint256 value) external returns (bool);
}

interface IV3SwapCallback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @title OverReportingPool
/// @notice Router security tests only: an attacker's pool for `token0`/`token1` that claims more
/// output than it pays. As a V3-style pool, `swap` takes the exact input through the swap callback,
/// sends `delivered` of the output token and reports `reported` as the output. As a V2 pair,
/// `getReserves` answers whatever `setReserves` stored (a lie: a reserve of 0 on the input side makes
/// the V2 formula price the whole other reserve as the output) and `swap` sends `delivered`.
contract OverReportingPool {
    address public immutable token0;
    address public immutable token1;
    uint256 public delivered;
    uint256 public reported;
    uint112 private reserve0;
    uint112 private reserve1;

    constructor(address tokenA, address tokenB) {
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
    }

    function configure(uint256 delivered_, uint256 reported_) external {
        delivered = delivered_;
        reported = reported_;
    }

    function setReserves(uint112 reserve0_, uint112 reserve1_) external {
        (reserve0, reserve1) = (reserve0_, reserve1_);
    }

    /// V3-style exact input: owes exactly `amountSpecified`, reports `reported` out, pays `delivered`.
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160,
        bytes calldata
    ) external returns (int256 amount0, int256 amount1) {
        int256 out = -int256(reported);
        (amount0, amount1) = zeroForOne ? (amountSpecified, out) : (out, amountSpecified);
        if (delivered > 0) IERC20Transfer(zeroForOne ? token1 : token0).transfer(recipient, delivered);
        IV3SwapCallback(msg.sender).uniswapV3SwapCallback(amount0, amount1, "");
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, uint32(block.timestamp));
    }

    /// V2 pair: sends `delivered` of the token asked for, whatever amount was asked.
    function swap(uint256 amount0Out, uint256, address to, bytes calldata) external {
        if (delivered > 0) IERC20Transfer(amount0Out > 0 ? token0 : token1).transfer(to, delivered);
    }
}
