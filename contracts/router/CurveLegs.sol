// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LEG_CURVE} from "./RouterTypes.sol";
import {InvalidLegData, PartialFill} from "./RouterErrors.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

// The index type of a `curve` leg's `exchange`, as its data encodes it. StableSwap's templates
// (legacy plain and meta, NG plain and meta) take `int128` indexes; the CryptoSwap pools
// (twocrypto-ng, tricrypto-ng) take `uint256`: the selectors differ, so the leg says which. A meta
// pool's `exchange_underlying` (int128 indexes in its underlying coins: its coin, then the base
// pool's) is a third call the word selects.
uint8 constant CURVE_INDEX_INT128 = 0;
uint8 constant CURVE_INDEX_UINT256 = 1;
uint8 constant CURVE_UNDERLYING_INT128 = 2;
// StableSwap-NG holds at most 8 coins (its MAX_COINS); the other templates fewer.
uint256 constant CURVE_MAX_COINS = 8;

// No return value is read: the pools answer `uint256`, but the router counts the output by its
// balance, and a template that returned nothing would still swap.
interface ICurveStableSwapLike {
    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy) external;
}

interface ICurveMetaLike {
    function exchange_underlying(int128 i, int128 j, uint256 dx, uint256 minDy) external;
}

interface ICurveCryptoSwapLike {
    function exchange(uint256 i, uint256 j, uint256 dx, uint256 minDy) external;
}

/// @notice `curve` legs: one `exchange(i, j, amountIn, minOut)` on a Curve pool (or a meta pool's
/// `exchange_underlying(i, j, amountIn, minOut)`, which trades through its base pool), paid to the router
/// (the four-argument form pays `msg.sender`), with the leg's `minOut` as the pool's own `min_dy`.
/// @dev `leg.pool` is untrusted like any pool. The pool pulls its input by `transferFrom`: exactly
/// `amountIn` is approved for the call and the approval is cleared after it (so a token that
/// refuses to change a non-zero allowance, USDT's rule, always starts from zero). The leg must spend
/// exactly `amountIn` of `tokenIn` (else `PartialFill`): a pool whose coin `i` is not `tokenIn`
/// cannot pull its coin (nothing else is approved), so its call reverts or the leg spent nothing; a
/// pool whose coin `j` is not `tokenOut` delivers nothing and `SwapRouter` reverts `NothingDelivered`. The output is measured by `SwapRouter` as for every leg.
abstract contract CurveLegs {
    /// `data` = abi.encode(uint8 i, uint8 j, uint8 indexType): coin indexes below 8 and distinct,
    /// `indexType` `CURVE_INDEX_INT128`, `CURVE_INDEX_UINT256` or `CURVE_UNDERLYING_INT128`;
    /// anything else `InvalidLegData(8)`.
    function _swapCurve(address pool, address tokenIn, uint256 amountIn, uint256 minOut, bytes calldata data) internal {
        if (data.length != 96 || pool == address(0)) revert InvalidLegData(LEG_CURVE);
        // Decoded as words and range-checked, so a malformed word is our error, not the decoder's.
        (uint256 i, uint256 j, uint256 indexType) = abi.decode(data, (uint256, uint256, uint256));
        if (i == j || i >= CURVE_MAX_COINS || j >= CURVE_MAX_COINS || indexType > CURVE_UNDERLYING_INT128) {
            revert InvalidLegData(LEG_CURVE);
        }
        uint256 balanceBefore = TokenTransfers.balanceOfSelf(tokenIn);
        TokenTransfers.safeApprove(tokenIn, pool, amountIn);
        if (indexType == CURVE_INDEX_INT128) {
            ICurveStableSwapLike(pool).exchange(int128(int256(i)), int128(int256(j)), amountIn, minOut);
        } else if (indexType == CURVE_INDEX_UINT256) {
            ICurveCryptoSwapLike(pool).exchange(i, j, amountIn, minOut);
        } else {
            ICurveMetaLike(pool).exchange_underlying(int128(int256(i)), int128(int256(j)), amountIn, minOut);
        }
        TokenTransfers.safeApprove(tokenIn, pool, 0);
        uint256 balanceAfter = TokenTransfers.balanceOfSelf(tokenIn);
        uint256 spent = balanceAfter < balanceBefore ? balanceBefore - balanceAfter : 0;
        if (spent != amountIn) revert PartialFill(pool, spent, amountIn);
    }
}
