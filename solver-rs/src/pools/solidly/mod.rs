//! Solidly pools (Aerodrome V2, Velodrome V2 lineage): volatile x·y=k or stable x³y+xy³=k, with
//! the factory fee floored off the input. Mirrors `contracts/Pool.sol` of aerodrome-finance.

mod amount_out;
mod output_bound;
mod stable_bound;
mod stable_curve;
#[cfg(test)]
#[path = "solidly_tests.rs"]
mod tests;

pub use amount_out::{
    amount_out_after_fee, fee_amount_round_down, get_amount_out, k, Curve, BPS, MAX_FEE_BPS,
};
pub use stable_curve::{
    d, f, get_y, k_stable, normalise_down, TokenScales, MAX_NEWTON_ROUNDS, WAD,
};

use super::cpmm::ReserveString;
use super::input::{FromWire, PoolInputError};
use super::registry::{DexSpec, Model};
use super::shape::Hyperbola;
use super::{two_token_direction, OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::U256;
use crate::route::convex::curve::{Curve as ConvexCurve, MAX_SWAPS_PER_POOL};
use serde::Deserialize;
pub use stable_bound::Stable;

/// Largest decimals count whose 10^decimals fits in 256 bits (10^77 < 2^256 < 10^78).
pub const MAX_DECIMALS: u32 = 77;

/// Wire state: `getReserves()`, `stable()`, the tokens' decimals counts, and the factory's
/// effective `getFee(pool, stable)` in bps (the 420 zero-fee indicator already resolved to 0).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SolidlyWire {
    /// Raw reserves (reserve0, reserve1) as decimal strings.
    pub reserves: [ReserveString; 2],
    /// `stable()`: true prices on x³y + xy³, false on x·y.
    pub stable: bool,
    /// The tokens' decimals counts (not 10^decimals), 0..=77.
    pub decimals: [u32; 2],
    /// The effective factory fee in bps of the input, 0..=300.
    pub fee_bps: u32,
}

/// An Aerodrome V2 pool. Reserves are raw token units (uint256 on chain).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolidlyPool {
    /// Raw reserve of token0.
    pub reserve0: U256,
    /// Raw reserve of token1.
    pub reserve1: U256,
    /// Volatile, or stable with the pool's 10^decimals scales.
    pub curve: Curve,
    /// Factory fee in bps of the input, 0..=300, floored off the input.
    pub fee_bps: u32,
}

fn scale_of(decimals: u32, field: &str) -> Result<U256, PoolInputError> {
    if decimals > MAX_DECIMALS {
        return Err(PoolInputError::Invalid(format!(
            "solidly {field} is {decimals}: 10^decimals must fit in 256 bits (0..={MAX_DECIMALS})"
        )));
    }
    Ok(U256::from(10).pow(U256::from(decimals)))
}

impl SolidlyPool {
    /// (10^decimals of the input token, of the output token) as floats.
    fn oriented_scales(&self, scales: TokenScales, zero_for_one: bool) -> (f64, f64) {
        let (scale_in, scale_out) = if zero_for_one {
            (scales.scale0, scales.scale1)
        } else {
            (scales.scale1, scales.scale0)
        };
        (f64::from(scale_in), f64::from(scale_out))
    }

    fn oriented(&self, zero_for_one: bool) -> (U256, U256) {
        if zero_for_one {
            (self.reserve0, self.reserve1)
        } else {
            (self.reserve1, self.reserve0)
        }
    }

    /// The output `swap()` would pay and the reserves after it, in pool order.
    fn swap(&self, zero_for_one: bool, amount_in: U256) -> Result<(U256, U256, U256), PoolError> {
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        if reserve_in.is_zero() || reserve_out.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        let out = get_amount_out(
            self.curve,
            amount_in,
            zero_for_one,
            self.reserve0,
            self.reserve1,
            self.fee_bps,
        )?;
        // swap() reverts on a zero output and on an output reaching the whole reserve.
        if out.is_zero() || out >= reserve_out {
            return Err(PoolError::InsufficientLiquidity);
        }
        // swap() moves the fee out to PoolFees before it re-reads balances, so the reserves keep
        // only the net input.
        let fee = fee_amount_round_down(amount_in, self.fee_bps)?;
        // The fee is a fraction of the input, and the output below the reserve (refused above).
        let net_in = amount_in.checked_sub(fee).ok_or(PoolError::Overflow)?;
        let new_in = reserve_in.checked_add(net_in).ok_or(PoolError::Overflow)?;
        let new_out = reserve_out.checked_sub(out).ok_or(PoolError::Overflow)?;
        let (new0, new1) = if zero_for_one { (new_in, new_out) } else { (new_out, new_in) };
        // swap()'s own `_k(balances) >= _k(reserves)` check. The view's answer passes it except
        // where the `_k` quirk in `_get_y` returns a y one wei short (tokens over 18 decimals).
        if k(self.curve, new0, new1)? < k(self.curve, self.reserve0, self.reserve1)? {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok((out, new0, new1))
    }
}

impl PoolModel for SolidlyPool {
    type Memo = ();

    /// Volatile: the hyperbola. The fee is floored off the input and moved out of the pool, so the
    /// net input n < (1 − f)·input + 1 per swap and the reserves grow only by n; x·y never falls,
    /// so a sequence pays at most S·N / (R + N) for its total net N < (1 − f)·total + swaps: the
    /// curve allows for [`MAX_SWAPS_PER_POOL`] swaps. Stable: the level curve
    /// (`stable_bound.rs`).
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<ConvexCurve> {
        let zero_for_one = two_token_direction(token_in, token_out).ok()?;
        match self.curve {
            Curve::Volatile => {
                let (r_in, r_out) = match zero_for_one {
                    true => (self.reserve0, self.reserve1),
                    false => (self.reserve1, self.reserve0),
                };
                let keep = f64::from(BPS.saturating_sub(self.fee_bps)) / f64::from(BPS);
                let offset = f64::from(MAX_SWAPS_PER_POOL);
                Hyperbola::new(f64::from(r_in), f64::from(r_out), keep, offset)
                    .map(ConvexCurve::Hyperbola)
            }
            Curve::Stable(scales) => {
                Stable::of(self, scales, zero_for_one).map(ConvexCurve::Stable)
            }
        }
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok(SwapOutcome::flat(U256::ZERO));
        }
        let (amount_out, _, _) = self.swap(zero_for_one, amount_in)?;
        Ok(SwapOutcome::flat(amount_out))
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok((SwapOutcome::flat(U256::ZERO), self.clone()));
        }
        let (amount_out, reserve0, reserve1) = self.swap(zero_for_one, amount_in)?;
        let next = SolidlyPool { reserve0, reserve1, ..self.clone() };
        Ok((SwapOutcome::flat(amount_out), next))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        let Ok(zero_for_one) = two_token_direction(token_in, token_out) else { return 0.0 };
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        if reserve_in.is_zero() || reserve_out.is_zero() {
            return 0.0;
        }
        let fee_factor = f64::from(BPS.saturating_sub(self.fee_bps)) / f64::from(BPS);
        let (r_in, r_out) = (f64::from(reserve_in), f64::from(reserve_out));
        match self.curve {
            Curve::Volatile => r_out / r_in * fee_factor,
            Curve::Stable(scales) => {
                let (scale_in, scale_out) = self.oriented_scales(scales, zero_for_one);
                // Written in t = y/x so that no power of a large reserve is formed.
                let t = (r_out / scale_out) / (r_in / scale_in);
                output_bound::stable_slope(t) * scale_out / scale_in * fee_factor
            }
        }
    }

    /// The fee is floored off the input, so the net input is below amount·(1 − fee) + 1; from
    /// there, [`output_bound::volatile_bound`] or [`output_bound::stable_bound`]. (0 where the
    /// pool refuses every swap: an empty reserve or a bad direction.)
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        let Ok(zero_for_one) = two_token_direction(token_in, token_out) else { return 0.0 };
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        if reserve_in.is_zero() || reserve_out.is_zero() {
            return 0.0;
        }
        let net_in =
            amount_in * (f64::from(BPS.saturating_sub(self.fee_bps)) / f64::from(BPS)) + 1.0;
        let (r_in, r_out) = (f64::from(reserve_in), f64::from(reserve_out));
        match self.curve {
            Curve::Volatile => output_bound::volatile_bound(net_in, r_in, r_out),
            Curve::Stable(scales) => {
                let (scale_in, scale_out) = self.oriented_scales(scales, zero_for_one);
                output_bound::stable_bound(net_in, r_in, r_out, scale_in, scale_out)
            }
        }
    }
}

impl FromWire for SolidlyPool {
    type Wire = SolidlyWire;

    /// Builds the pool from its wire state; refuses decimals over 77 and fees over MAX_FEE (300).
    fn from_wire(wire: SolidlyWire, spec: &DexSpec) -> Result<Self, PoolInputError> {
        if spec.model != Model::Solidly {
            return Err(PoolInputError::WrongModel { dex: spec.dex, model: "solidly" });
        }
        if wire.fee_bps > MAX_FEE_BPS {
            return Err(PoolInputError::Invalid(format!(
                "solidly feeBps is {}: the factory caps fees at {MAX_FEE_BPS}",
                wire.fee_bps
            )));
        }
        let scales = TokenScales {
            scale0: scale_of(wire.decimals[0], "decimals[0]")?,
            scale1: scale_of(wire.decimals[1], "decimals[1]")?,
        };
        let curve = if wire.stable { Curve::Stable(scales) } else { Curve::Volatile };
        let [r0, r1] = wire.reserves;
        Ok(SolidlyPool { reserve0: r0.0, reserve1: r1.0, curve, fee_bps: wire.fee_bps })
    }
}
