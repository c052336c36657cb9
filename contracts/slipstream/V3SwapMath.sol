// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";
import {SqrtPriceMath} from "@uniswap/v4-core/src/libraries/SqrtPriceMath.sol";

/// @notice Uniswap V3's `SwapMath.computeSwapStep`, which Slipstream's pools keep (sign convention:
/// a positive `amountRemaining` is exact input). Differs from V4's step, which the v4-core
/// package holds, in how it accounts a step that stops short of its target: V3 recomputes the
/// input from the new price and charges the rest of the amount as fee, V4 keeps the input and
/// charges the difference; the output and the total taken are the same. Price helpers come from
/// `v4-core` (npm `uniswap/v4-core`) (its SqrtPriceMath computes the same values as V3's).
library V3SwapMath {
    uint256 private constant PIPS = 1e6;

    function computeSwapStep(
        uint160 sqrtRatioCurrentX96,
        uint160 sqrtRatioTargetX96,
        uint128 liquidity,
        int256 amountRemaining,
        uint24 feePips
    ) internal pure returns (uint160 sqrtRatioNextX96, uint256 amountIn, uint256 amountOut, uint256 feeAmount) {
        bool zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96;
        bool exactIn = amountRemaining >= 0;
        if (exactIn) {
            // The fee is taken first, rounded against the trader (the input left after it is floored).
            uint256 amountRemainingLessFee = FullMath.mulDiv(uint256(amountRemaining), PIPS - feePips, PIPS);
            amountIn =
                zeroForOne
                    ? SqrtPriceMath.getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
                    : SqrtPriceMath.getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true);
            sqrtRatioNextX96 =
                amountRemainingLessFee >= amountIn
                    ? sqrtRatioTargetX96
                    : SqrtPriceMath.getNextSqrtPriceFromInput(
                        sqrtRatioCurrentX96,
                        liquidity,
                        amountRemainingLessFee,
                        zeroForOne
                    );
        } else {
            amountOut =
                zeroForOne
                    ? SqrtPriceMath.getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
                    : SqrtPriceMath.getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false);
            sqrtRatioNextX96 =
                uint256(-amountRemaining) >= amountOut
                    ? sqrtRatioTargetX96
                    : SqrtPriceMath.getNextSqrtPriceFromOutput(
                        sqrtRatioCurrentX96,
                        liquidity,
                        uint256(-amountRemaining),
                        zeroForOne
                    );
        }
        bool max = sqrtRatioTargetX96 == sqrtRatioNextX96;
        // Inputs round up and outputs down, whichever amount was specified.
        if (zeroForOne) {
            amountIn =
                max && exactIn
                    ? amountIn
                    : SqrtPriceMath.getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true);
            amountOut =
                max && !exactIn
                    ? amountOut
                    : SqrtPriceMath.getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false);
        } else {
            amountIn =
                max && exactIn
                    ? amountIn
                    : SqrtPriceMath.getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true);
            amountOut =
                max && !exactIn
                    ? amountOut
                    : SqrtPriceMath.getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false);
        }
        if (!exactIn && amountOut > uint256(-amountRemaining)) amountOut = uint256(-amountRemaining);
        feeAmount =
            exactIn && sqrtRatioNextX96 != sqrtRatioTargetX96
                ? uint256(amountRemaining) - amountIn
                : FullMath.mulDivRoundingUp(amountIn, feePips, PIPS - feePips);
    }
}
