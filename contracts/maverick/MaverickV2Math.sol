// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";

/// @notice The within-tick swap math of Maverick V2, written from its published facts: the tick
/// math of Maverick's open `v2-common` library (`TickMath.tickSqrtPrice`, `getTickL` with its
/// precision bump, `getSqrtPrice`, `Math.scale`, `ammScaleToTokenScale`, `tokenScaleToAmmScale`)
/// and the pool's closed swap math as the aggregators' ports of it state it (`computeSwapExactIn`,
/// `remainingBinInputSpaceGivenOutput`, `amountToBinNetOfProtocolFee`), each in its order and
/// rounding. Amounts here are on the AMM scale (18 decimals); prices are square roots, D18, of
/// tokenA per tokenB (a swap of A in moves the price, and the active tick, up).
library MaverickV2Math {
    uint256 internal constant ONE = 1e18;
    uint256 internal constant MAX_TICK = 460540;

    /// @notice `|tick| * tickSpacing` is past Maverick's tick range.
    error TickMaxExceeded(int256 tick);

    /// @notice The swap of one tick: what goes in (with fee) and out, what the tick keeps (the input
    /// less the protocol's share of the fee) and the input left over for the next tick.
    struct TickSwap {
        uint256 deltaInErc;
        uint256 deltaInBinInternal;
        uint256 deltaOutErc;
        uint256 excess;
    }

    function mulDown(uint256 x, uint256 y) internal pure returns (uint256) {
        return FullMath.mulDiv(x, y, ONE);
    }

    function divDown(uint256 x, uint256 y) internal pure returns (uint256) {
        return FullMath.mulDiv(x, ONE, y);
    }

    function divUp(uint256 x, uint256 y) internal pure returns (uint256) {
        return FullMath.mulDivRoundingUp(x, ONE, y);
    }

    function invFloor(uint256 x) internal pure returns (uint256) {
        return 1e36 / x;
    }

    function invCeil(uint256 x) internal pure returns (uint256) {
        return (1e36 - 1) / x + 1;
    }

    function clip(uint256 x, uint256 y) internal pure returns (uint256) {
        return x < y ? 0 : x - y;
    }

    function min(uint256 x, uint256 y) internal pure returns (uint256) {
        return x < y ? x : y;
    }

    /// @dev The floor of the square root (what Maverick's `Math.sqrt` returns): Newton's iteration
    /// from a power of two at or above the root, which falls monotonically to the floor.
    function sqrt(uint256 x) internal pure returns (uint256 r) {
        if (x == 0) return 0;
        uint256 bits;
        for (uint256 y = x; y > 1; y >>= 1) bits++;
        r = uint256(1) << ((bits >> 1) + 1);
        while (true) {
            uint256 next = (r + x / r) >> 1;
            if (next >= r) return r;
            r = next;
        }
    }

    /// @notice The factor between a token's decimals and the AMM's 18.
    function scale(uint8 decimals) internal pure returns (uint256) {
        return 10 ** (18 - decimals);
    }

    function tokenScaleToAmmScale(uint256 amount, uint256 scaleFactor) internal pure returns (uint256) {
        return amount * scaleFactor;
    }

    function ammScaleToTokenScale(uint256 amount, uint256 scaleFactor, bool ceil) internal pure returns (uint256) {
        if (scaleFactor == 1 || amount == 0) return amount;
        return ceil ? (amount - 1) / scaleFactor + 1 : amount / scaleFactor;
    }

    /// @notice sqrt(1.0001^(tick * tickSpacing)), D18: the Q128 ratio table of the tick math, then
    /// inverted for positive ticks and brought to 18 decimals.
    function tickSqrtPrice(uint256 tickSpacing, int32 tick) internal pure returns (uint256) {
        uint256 absTick = uint256(tick < 0 ? -int256(tick) : int256(tick)) * tickSpacing;
        if (absTick > MAX_TICK) revert TickMaxExceeded(tick);
        uint256 ratio = absTick & 0x1 != 0 ? 0xfffcb933bd6fad9d3af5f0b9f25db4d6 : 0x100000000000000000000000000000000;
        unchecked {
            if (absTick & 0x2 != 0) ratio = (ratio * 0xfff97272373d41fd789c8cb37ffcaa1c) >> 128;
            if (absTick & 0x4 != 0) ratio = (ratio * 0xfff2e50f5f656ac9229c67059486f389) >> 128;
            if (absTick & 0x8 != 0) ratio = (ratio * 0xffe5caca7e10e81259b3cddc7a064941) >> 128;
            if (absTick & 0x10 != 0) ratio = (ratio * 0xffcb9843d60f67b19e8887e0bd251eb7) >> 128;
            if (absTick & 0x20 != 0) ratio = (ratio * 0xff973b41fa98cd2e57b660be99eb2c4a) >> 128;
            if (absTick & 0x40 != 0) ratio = (ratio * 0xff2ea16466c9838804e327cb417cafcb) >> 128;
            if (absTick & 0x80 != 0) ratio = (ratio * 0xfe5dee046a99d51e2cc356c2f617dbe0) >> 128;
            if (absTick & 0x100 != 0) ratio = (ratio * 0xfcbe86c7900aecf64236ab31f1f9dcb5) >> 128;
            if (absTick & 0x200 != 0) ratio = (ratio * 0xf987a7253ac4d9194200696907cf2e37) >> 128;
            if (absTick & 0x400 != 0) ratio = (ratio * 0xf3392b0822b88206f8abe8a3b44dd9be) >> 128;
            if (absTick & 0x800 != 0) ratio = (ratio * 0xe7159475a2c578ef4f1d17b2b235d480) >> 128;
            if (absTick & 0x1000 != 0) ratio = (ratio * 0xd097f3bdfd254ee83bdd3f248e7e785e) >> 128;
            if (absTick & 0x2000 != 0) ratio = (ratio * 0xa9f746462d8f7dd10e744d913d033333) >> 128;
            if (absTick & 0x4000 != 0) ratio = (ratio * 0x70d869a156ddd32a39e257bc3f50aa9b) >> 128;
            if (absTick & 0x8000 != 0) ratio = (ratio * 0x31be135f97da6e09a19dc367e3b6da40) >> 128;
            if (absTick & 0x10000 != 0) ratio = (ratio * 0x9aa508b5b7e5a9780b0cc4e25d61a56) >> 128;
            if (absTick & 0x20000 != 0) ratio = (ratio * 0x5d6af8dedbcb3a6ccb7ce618d14225) >> 128;
            if (absTick & 0x40000 != 0) ratio = (ratio * 0x2216e584f630389b2052b8db590e) >> 128;
            if (tick > 0) ratio = type(uint256).max / ratio;
            return (ratio * ONE) >> 128;
        }
    }

    /// @notice A tick's liquidity from its reserves: the root of the tick's quadratic, a lower bound
    /// (the 1e18 factor is taken outside the root), small reserves bumped by 2^57 for precision.
    function getTickL(
        uint256 reserveA,
        uint256 reserveB,
        uint256 sqrtLower,
        uint256 sqrtUpper
    ) internal pure returns (uint256) {
        uint256 diff = sqrtUpper - sqrtLower;
        uint256 bump;
        if ((reserveA >> 78) == 0 && (reserveB >> 78) == 0) {
            bump = 57;
            reserveA <<= bump;
            reserveB <<= bump;
        }
        if (reserveB == 0) return divDown(reserveA, diff) >> bump;
        if (reserveA == 0) return FullMath.mulDiv(mulDown(reserveB, sqrtLower), sqrtUpper, diff) >> bump;
        uint256 b = (divDown(reserveA, sqrtUpper) + mulDown(reserveB, sqrtLower)) >> 1;
        uint256 root = sqrt(FullMath.mulDiv(b, b, ONE) + FullMath.mulDiv(mulDown(reserveB, reserveA), diff, sqrtUpper));
        return FullMath.mulDiv(b + root * 1e9, sqrtUpper, diff) >> bump;
    }

    /// @notice The price inside a tick from its reserves and liquidity, held to the tick's edges.
    function getSqrtPrice(
        uint256 reserveA,
        uint256 reserveB,
        uint256 sqrtLower,
        uint256 sqrtUpper,
        uint256 liquidity
    ) internal pure returns (uint256 sqrtPrice) {
        if (reserveA == 0) return sqrtLower;
        if (reserveB == 0) return sqrtUpper;
        sqrtPrice = sqrt(
            ONE * divDown(reserveA + mulDown(liquidity, sqrtLower), reserveB + divDown(liquidity, sqrtUpper))
        );
        if (sqrtPrice < sqrtLower) sqrtPrice = sqrtLower;
        if (sqrtPrice > sqrtUpper) sqrtPrice = sqrtUpper;
    }

    /// @notice The input (net of fee) that takes `output` out of a tick of liquidity `liquidity` at `sqrtPrice`.
    function remainingBinInputSpaceGivenOutput(
        uint256 liquidity,
        uint256 output,
        uint256 sqrtPrice,
        bool tokenAIn
    ) internal pure returns (uint256) {
        uint256 outOverL = liquidity == 0 ? 0 : divUp(output, liquidity);
        if (tokenAIn) return FullMath.mulDivRoundingUp(output, sqrtPrice, invFloor(sqrtPrice) - outOverL);
        return divUp(output, mulDown(sqrtPrice, sqrtPrice - outOverL));
    }

    /// @notice The input the tick keeps: all of it less the protocol's share (`ratioD3` thousandths,
    /// rounded up) of the fee.
    function amountToBinNetOfProtocolFee(
        uint256 deltaInErc,
        uint256 feeBasis,
        uint256 protocolFeeRatioD3
    ) internal pure returns (uint256) {
        if (protocolFeeRatioD3 == 0) return deltaInErc;
        return clip(deltaInErc, FullMath.mulDivRoundingUp(feeBasis, protocolFeeRatioD3, 1e3));
    }

    /// @notice Exact input into one tick: either the whole of `amountIn` fits (excess 0) and the
    /// output follows the tick's curve, or the tick's whole output goes and the rest is excess.
    function computeSwapExactIn(
        uint256 sqrtPrice,
        uint256 liquidity,
        uint256 reserveA,
        uint256 reserveB,
        uint256 amountIn,
        bool tokenAIn,
        uint256 fee,
        uint256 protocolFeeRatioD3
    ) internal pure returns (TickSwap memory delta) {
        delta.deltaOutErc = tokenAIn ? reserveB : reserveA;
        uint256 binAmountIn = remainingBinInputSpaceGivenOutput(liquidity, delta.deltaOutErc, sqrtPrice, tokenAIn);
        uint256 userBinAmountIn = mulDown(amountIn, ONE - fee);
        uint256 feeBasis;
        if (userBinAmountIn < binAmountIn) {
            binAmountIn = userBinAmountIn;
            delta.deltaInErc = amountIn;
            feeBasis = amountIn - userBinAmountIn;
        } else {
            feeBasis = FullMath.mulDivRoundingUp(binAmountIn, fee, ONE - fee);
            delta.deltaInErc = binAmountIn + feeBasis;
            delta.excess = clip(amountIn, delta.deltaInErc);
        }
        delta.deltaInBinInternal = amountToBinNetOfProtocolFee(delta.deltaInErc, feeBasis, protocolFeeRatioD3);
        if (delta.excess != 0) return delta;
        uint256 inOverL = divUp(binAmountIn, liquidity + 1);
        uint256 out =
            tokenAIn
                ? FullMath.mulDiv(binAmountIn, invFloor(sqrtPrice), inOverL + sqrtPrice)
                : FullMath.mulDiv(binAmountIn, sqrtPrice, inOverL + invCeil(sqrtPrice));
        delta.deltaOutErc = min(delta.deltaOutErc, out);
    }
}
