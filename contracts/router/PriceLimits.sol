// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TickMath} from "@uniswap/v4-core/src/libraries/TickMath.sol";

/// @notice The price limit of an exact-input swap that may cross every initialized tick: one step
/// inside v4-core's `TickMath` range (a limit must lie strictly inside it). Uniswap V3's
/// `MIN_SQRT_RATIO` / `MAX_SQRT_RATIO`, which the V3-style pools check, are the same two numbers.
library PriceLimits {
    uint160 internal constant MIN_SQRT_PRICE_PLUS_ONE = TickMath.MIN_SQRT_PRICE + 1;
    uint160 internal constant MAX_SQRT_PRICE_MINUS_ONE = TickMath.MAX_SQRT_PRICE - 1;

    /// @param zeroForOne whether the swap sells token0 (the price falls) or token1 (it rises)
    /// @return sqrtPriceLimitX96 the limit no swap in that direction reaches
    function unbounded(bool zeroForOne) internal pure returns (uint160 sqrtPriceLimitX96) {
        return zeroForOne ? MIN_SQRT_PRICE_PLUS_ONE : MAX_SQRT_PRICE_MINUS_ONE;
    }
}
