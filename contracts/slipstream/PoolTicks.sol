// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {LiquidityMath} from "@uniswap/v4-core/src/libraries/LiquidityMath.sol";

/// @notice Per-tick and per-position state of a Slipstream pool, with Uniswap V3's fee-growth
/// bookkeeping: a tick's `feeGrowthOutside` is the growth on the side away from the current tick,
/// flipped each time the price crosses it, so a position's fees are global − below − above.
/// @dev `ticks(int24)` returns the fields in Slipstream's order (`stakedLiquidityNet`, the reward
/// growth and the oracle values outside a tick are always 0 here: there are no gauges and no
/// `snapshotCumulativesInside` on the devnet).
library PoolTicks {
    struct Info {
        uint128 liquidityGross;
        int128 liquidityNet;
        int128 stakedLiquidityNet;
        uint256 feeGrowthOutside0X128;
        uint256 feeGrowthOutside1X128;
        uint256 rewardGrowthOutsideX128;
        int56 tickCumulativeOutside;
        uint160 secondsPerLiquidityOutsideX128;
        uint32 secondsOutside;
        bool initialized;
    }

    struct Position {
        uint128 liquidity;
        uint256 feeGrowthInside0LastX128;
        uint256 feeGrowthInside1LastX128;
        uint128 tokensOwed0;
        uint128 tokensOwed1;
    }

    /// The most liquidity one tick may reference, so the sum over every usable tick fits uint128.
    function maxLiquidityPerTick(int24 tickSpacing, int24 minTick, int24 maxTick) internal pure returns (uint128) {
        int24 lowest = (minTick / tickSpacing) * tickSpacing;
        int24 highest = (maxTick / tickSpacing) * tickSpacing;
        uint24 numTicks = uint24((highest - lowest) / tickSpacing) + 1;
        return type(uint128).max / numTicks;
    }

    /// Adds `liquidityDelta` to a tick's gross and net liquidity; true when it flipped between
    /// initialized and not. A tick initialized at or below the current tick starts with all
    /// growth counted as below it.
    function update(
        mapping(int24 => Info) storage self,
        int24 tick,
        int24 tickCurrent,
        int128 liquidityDelta,
        uint256 feeGrowthGlobal0X128,
        uint256 feeGrowthGlobal1X128,
        bool upper,
        uint128 maxLiquidity
    ) internal returns (bool flipped) {
        Info storage info = self[tick];
        uint128 liquidityGrossBefore = info.liquidityGross;
        uint128 liquidityGrossAfter = LiquidityMath.addDelta(liquidityGrossBefore, liquidityDelta);
        require(liquidityGrossAfter <= maxLiquidity, "LO");
        flipped = (liquidityGrossAfter == 0) != (liquidityGrossBefore == 0);
        if (liquidityGrossBefore == 0) {
            if (tick <= tickCurrent) {
                info.feeGrowthOutside0X128 = feeGrowthGlobal0X128;
                info.feeGrowthOutside1X128 = feeGrowthGlobal1X128;
            }
            info.initialized = true;
        }
        info.liquidityGross = liquidityGrossAfter;
        // The lower tick adds liquidity when crossed upward, the upper one removes it.
        info.liquidityNet = upper ? info.liquidityNet - liquidityDelta : info.liquidityNet + liquidityDelta;
    }

    function clear(mapping(int24 => Info) storage self, int24 tick) internal {
        delete self[tick];
    }

    /// Crossing a tick flips its outside growth; returns the liquidity to add when moving up.
    function cross(
        mapping(int24 => Info) storage self,
        int24 tick,
        uint256 feeGrowthGlobal0X128,
        uint256 feeGrowthGlobal1X128
    ) internal returns (int128 liquidityNet) {
        Info storage info = self[tick];
        unchecked {
            info.feeGrowthOutside0X128 = feeGrowthGlobal0X128 - info.feeGrowthOutside0X128;
            info.feeGrowthOutside1X128 = feeGrowthGlobal1X128 - info.feeGrowthOutside1X128;
        }
        liquidityNet = info.liquidityNet;
    }

    /// Fee growth per unit of liquidity between two ticks (wrapping, as V3's accumulators do).
    function feeGrowthInside(
        mapping(int24 => Info) storage self,
        int24 tickLower,
        int24 tickUpper,
        int24 tickCurrent,
        uint256 feeGrowthGlobal0X128,
        uint256 feeGrowthGlobal1X128
    ) internal view returns (uint256 inside0X128, uint256 inside1X128) {
        Info storage lower = self[tickLower];
        Info storage upper = self[tickUpper];
        unchecked {
            (uint256 below0, uint256 below1) = tickCurrent >= tickLower
                ? (lower.feeGrowthOutside0X128, lower.feeGrowthOutside1X128)
                : (
                    feeGrowthGlobal0X128 - lower.feeGrowthOutside0X128,
                    feeGrowthGlobal1X128 - lower.feeGrowthOutside1X128
                );
            (uint256 above0, uint256 above1) = tickCurrent < tickUpper
                ? (upper.feeGrowthOutside0X128, upper.feeGrowthOutside1X128)
                : (
                    feeGrowthGlobal0X128 - upper.feeGrowthOutside0X128,
                    feeGrowthGlobal1X128 - upper.feeGrowthOutside1X128
                );
            inside0X128 = feeGrowthGlobal0X128 - below0 - above0;
            inside1X128 = feeGrowthGlobal1X128 - below1 - above1;
        }
    }
}
