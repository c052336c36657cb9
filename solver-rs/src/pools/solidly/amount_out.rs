//! `Pool.getAmountOut` and `_getAmountOut` of Aerodrome's `Pool.sol`, operation for operation.

use super::stable_curve::{add, div, get_y, k_stable, mul, normalise_down, sub, TokenScales, WAD};
use crate::math::U256;
use crate::pools::PoolError;

/// Basis-point denominator of the factory fee.
pub const BPS: u32 = 10_000;

/// The factory's MAX_FEE: 300 bps (3 %).
pub const MAX_FEE_BPS: u32 = 300;

/// The curve a pool prices on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Curve {
    /// x·y = k on raw reserves.
    Volatile,
    /// x³y + xy³ = k on reserves normalised to 1e18 by each token's scale.
    Stable(TokenScales),
}

/// floor(amount_in·fee_bps/10 000): the fee the pool keeps. Floored, so the net input rounds up.
pub fn fee_amount_round_down(amount_in: U256, fee_bps: u32) -> Result<U256, PoolError> {
    div(mul(amount_in, U256::from(fee_bps))?, U256::from(BPS))
}

/// The pool's `_k(x, y)` on raw balances in pool order: x·y (volatile) or [`k_stable`].
pub fn k(curve: Curve, x: U256, y: U256) -> Result<U256, PoolError> {
    match curve {
        Curve::Volatile => mul(x, y),
        Curve::Stable(scales) => k_stable(x, y, scales),
    }
}

/// `getAmountOut(amountIn, tokenIn)`: the fee is floored off the input, then `_getAmountOut`.
/// Reserves are raw and in pool order; the output is raw units of the other token, rounded down.
/// Returns what the view returns, even 0 or a value the swap itself would refuse.
pub fn get_amount_out(
    curve: Curve,
    amount_in: U256,
    zero_for_one: bool,
    reserve0: U256,
    reserve1: U256,
    fee_bps: u32,
) -> Result<U256, PoolError> {
    let net_in = sub(amount_in, fee_amount_round_down(amount_in, fee_bps)?)?;
    amount_out_after_fee(curve, net_in, zero_for_one, reserve0, reserve1)
}

/// `_getAmountOut(amountIn, tokenIn, reserve0, reserve1)` on an input the fee is already off.
pub fn amount_out_after_fee(
    curve: Curve,
    net_in: U256,
    zero_for_one: bool,
    reserve0: U256,
    reserve1: U256,
) -> Result<U256, PoolError> {
    match curve {
        Curve::Volatile => {
            let (reserve_a, reserve_b) =
                if zero_for_one { (reserve0, reserve1) } else { (reserve1, reserve0) };
            div(mul(net_in, reserve_b)?, add(reserve_a, net_in)?)
        }
        Curve::Stable(scales) => {
            // xy is taken on the raw reserves before they are normalised, as in the source.
            let xy = k_stable(reserve0, reserve1, scales)?;
            let norm0 = normalise_down(reserve0, scales.scale0)?;
            let norm1 = normalise_down(reserve1, scales.scale1)?;
            let (reserve_a, reserve_b, scale_in, scale_out) = if zero_for_one {
                (norm0, norm1, scales.scale0, scales.scale1)
            } else {
                (norm1, norm0, scales.scale1, scales.scale0)
            };
            let net_in_norm = normalise_down(net_in, scale_in)?;
            let y = get_y(add(net_in_norm, reserve_a)?, xy, reserve_b, scales)?;
            let out_norm = sub(reserve_b, y)?;
            div(mul(out_norm, scale_out)?, WAD)
        }
    }
}

#[cfg(test)]
#[path = "amount_out_tests.rs"]
mod tests;
