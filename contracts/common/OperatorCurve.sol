// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FullMath} from "@uniswap/v4-core/src/libraries/FullMath.sol";

/// @notice The pricing curve of our closed-curve prop AMM stand-ins (PropSwap, Tessera, ElfomoFi,
/// Feltir): the real venues do not publish theirs, so this one is our own choice, documented in
/// docs/dex-kinds.md. Around an operator-set price it is monotone and concave: the input's value at
/// the price, `g = a·price`, pays `g·depth / (depth + g)` (a constant-product curve of virtual depth
/// `depth` in output units, so the marginal price starts at the operator's and falls with size), less
/// a fee in hundredths of a basis point (1e6 = 100 %). Prices are Q96 (output per input, raw units).
library OperatorCurve {
    uint256 internal constant Q96 = 1 << 96;
    uint256 internal constant FEE_UNIT = 1_000_000;

    /// @notice Output for `amountIn` at `priceX96` (output per input), `depth` and `feePips`.
    function amountOut(
        uint256 amountIn,
        uint256 priceX96,
        uint256 depth,
        uint256 feePips
    ) internal pure returns (uint256) {
        if (amountIn == 0 || priceX96 == 0 || depth == 0 || feePips >= FEE_UNIT) return 0;
        uint256 g = FullMath.mulDiv(amountIn, priceX96, Q96);
        uint256 out = FullMath.mulDiv(g, depth, depth + g);
        return FullMath.mulDiv(out, FEE_UNIT - feePips, FEE_UNIT);
    }

    /// @notice The price of the other direction: output per input of quote -> base, from base -> quote's.
    function inverse(uint256 priceX96) internal pure returns (uint256) {
        return priceX96 == 0 ? 0 : FullMath.mulDiv(Q96, Q96, priceX96);
    }
}
