// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_WOOFI} from "./RouterTypes.sol";
import {InvalidLegData, PartialFill} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

// No return value is read: the router counts the output by its balance.
interface IWooRouterLike {
    function swap(
        address fromToken,
        address toToken,
        uint256 fromAmount,
        uint256 minToAmount,
        address payable to,
        address rebateTo
    ) external payable;
}

/// @notice `woofi` legs: one `swap(tokenIn, tokenOut, amountIn, minOut, router, 0)` on the WooRouterV2
/// the spec's `woofi {router}` leg names (`leg.pool`), which pulls the input into its WooPPV2 vault
/// and has the vault pay the router; the leg's `minOut` is the vault's own `minToAmount`. Base to
/// base is one call (the vault sells through its quote token itself).
/// @dev The WooRouter is untrusted like any pool. It pulls by `transferFrom`: exactly `amountIn` is
/// approved for the call and cleared after it, and the leg must spend exactly `amountIn`
/// (`PartialFill` otherwise). No native value is sent (the router trades WETH; rebates go nowhere:
/// `rebateTo` is the zero address). The output is measured by `SwapRouter` as for every leg.
abstract contract WoofiLegs {
    /// `data` must be empty (the leg's tokens and the router say it all); anything else `InvalidLegData(11)`.
    function _swapWoofi(
        address wooRouter,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 minOut,
        bytes calldata data
    ) internal {
        if (data.length != 0 || wooRouter == address(0)) revert InvalidLegData(LEG_WOOFI);
        uint256 balanceBefore = TokenTransfers.balanceOfSelf(tokenIn);
        TokenTransfers.safeApprove(tokenIn, wooRouter, amountIn);
        IWooRouterLike(wooRouter).swap(tokenIn, tokenOut, amountIn, minOut, payable(address(this)), address(0));
        TokenTransfers.safeApprove(tokenIn, wooRouter, 0);
        uint256 balanceAfter = TokenTransfers.balanceOfSelf(tokenIn);
        uint256 spent = balanceAfter < balanceBefore ? balanceBefore - balanceAfter : 0;
        if (spent != amountIn) revert PartialFill(wooRouter, spent, amountIn);
    }
}
