// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeTransfers} from "../common/SafeTransfers.sol";
import {TesseraPool} from "./TesseraPool.sol";

/// @title TesseraSwap (stand-in)
/// @notice Tessera V's router and engine as an integrator sees them (research/dex-kinds.md §2.11):
/// `tesseraSwapViewAmounts(tokenIn, tokenOut, int256 amountSpecified)` returns (amountIn,
/// amountOut) and `tesseraSwapWithAllowances(tokenIn, tokenOut, amountSpecified, amountCheck,
/// recipient, data)` pulls the input by allowance and reverts `AmountCheckFailed` when the output
/// is below `amountCheck`; `getTesseraPool(t0, t1)` and `getTesseraPairs()` are the engine's and
/// indexer's views. Exact input only (a positive `amountSpecified`): negative amounts (exact
/// output on Tessera) revert `ExactOutputUnsupported`; a zero quote (stale, paused, trading
/// disabled, beyond inventory) reverts `NoLiquidity`.
contract TesseraSwap {
    address public owner;
    mapping(address => mapping(address => address)) private _pools;
    address[2][] private _pairs;

    error NotOwner();
    error NoPool(address tokenIn, address tokenOut);
    error ExactOutputUnsupported();
    error NoLiquidity();
    error AmountCheckFailed(uint256 amountOut, uint256 amountCheck);

    constructor(address owner_) {
        owner = owner_;
    }

    function registerPool(TesseraPool pool) external {
        if (msg.sender != owner) revert NotOwner();
        (address a, address b) = (pool.base(), pool.quote());
        if (_pools[a][b] == address(0)) _pairs.push([a, b]);
        _pools[a][b] = address(pool);
        _pools[b][a] = address(pool);
    }

    function getTesseraPool(address token0, address token1) external view returns (address) {
        return _pools[token0][token1];
    }

    function getTesseraPairs() external view returns (address[2][] memory) {
        return _pairs;
    }

    function tesseraSwapViewAmounts(
        address tokenIn,
        address tokenOut,
        int256 amountSpecified
    ) public view returns (uint256 amountIn, uint256 amountOut) {
        if (amountSpecified < 0) revert ExactOutputUnsupported();
        amountIn = uint256(amountSpecified);
        amountOut = _pool(tokenIn, tokenOut).quoteExactIn(tokenIn, tokenOut, amountIn);
    }

    function tesseraSwapWithAllowances(
        address tokenIn,
        address tokenOut,
        int256 amountSpecified,
        uint256 amountCheck,
        address recipient,
        bytes calldata
    ) external returns (uint256 amountIn, uint256 amountOut) {
        if (amountSpecified < 0) revert ExactOutputUnsupported();
        amountIn = uint256(amountSpecified);
        TesseraPool pool = _pool(tokenIn, tokenOut);
        if (!SafeTransfers.trySafeTransferFrom(tokenIn, msg.sender, address(pool), amountIn))
            revert SafeTransfers.SafeTransferFailed(tokenIn);
        amountOut = pool.swapExactIn(tokenIn, tokenOut, amountIn, recipient);
        if (amountOut == 0) revert NoLiquidity();
        if (amountOut < amountCheck) revert AmountCheckFailed(amountOut, amountCheck);
    }

    function _pool(address tokenIn, address tokenOut) private view returns (TesseraPool pool) {
        pool = TesseraPool(_pools[tokenIn][tokenOut]);
        if (address(pool) == address(0)) revert NoPool(tokenIn, tokenOut);
    }
}
