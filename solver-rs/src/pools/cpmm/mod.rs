//! Constant-product pools (Uniswap V2 and its forks): x·y=k, fee taken by scaling the input.

mod math;

pub use math::{amount_out as cpmm_amount_out, BPS};

use super::input::{FromWire, PoolInputError};
use super::registry::{DexSpec, Model};
use super::shape::Hyperbola;
use super::{two_token_direction, OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::decimal::u256_string;
use crate::math::U256;
use crate::route::convex::curve::Curve;
use serde::Deserialize;

/// Wire state: the pair's `getReserves()` (reserve0, reserve1). The fee comes from the registry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CpmmWire {
    pub reserves: [ReserveString; 2],
}

/// A reserve as a decimal string.
#[derive(Clone, Debug, Deserialize)]
#[serde(transparent)]
pub struct ReserveString(#[serde(with = "u256_string")] pub U256);

/// A V2-style pair. Reserves are uint112 on chain, so larger values are refused at decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpmmPool {
    pub reserve0: U256,
    pub reserve1: U256,
    /// Fee in basis points, applied as `amount_in * (10_000 - fee_bps)`.
    pub fee_bps: u32,
}

impl CpmmPool {
    fn oriented(&self, zero_for_one: bool) -> (U256, U256) {
        if zero_for_one {
            (self.reserve0, self.reserve1)
        } else {
            (self.reserve1, self.reserve0)
        }
    }
}

impl PoolModel for CpmmPool {
    type Memo = ();

    /// The hyperbola with n = (1 − f)·input. The contract pays ⌊n·S / (R + n)⌋ and keeps the whole
    /// input in its reserves, so the product of the reserves grows with every swap; a sequence of
    /// swaps in one direction therefore pays at most what one swap of their total would (each swap
    /// keeps (R + (1 − f)·a)(S − out) ≥ R·S, and chaining these gives the single swap's condition).
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        let (r_in, r_out) = match two_token_direction(token_in, token_out).ok()? {
            true => (self.reserve0, self.reserve1),
            false => (self.reserve1, self.reserve0),
        };
        let keep = f64::from(BPS.saturating_sub(self.fee_bps)) / f64::from(BPS);
        Hyperbola::new(f64::from(r_in), f64::from(r_out), keep, 0.0).map(Curve::Hyperbola)
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        let zero_for_one = two_token_direction(token_in, token_out)?;
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        let amount_out = math::amount_out(amount_in, reserve_in, reserve_out, self.fee_bps)?;
        Ok(SwapOutcome::flat(amount_out))
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let outcome = self.amount_out(token_in, token_out, amount_in)?;
        let zero_for_one = token_in == 0;
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        let new_in = reserve_in.checked_add(amount_in).ok_or(PoolError::Overflow)?;
        // The pair stores reserves as uint112 and reverts past that.
        if new_in >= U256::from(1u128 << 112) {
            return Err(PoolError::Overflow);
        }
        // The output is below the reserve (the formula's quotient never reaches it).
        let new_out = reserve_out.checked_sub(outcome.amount_out).ok_or(PoolError::Overflow)?;
        let next = if zero_for_one {
            CpmmPool { reserve0: new_in, reserve1: new_out, fee_bps: self.fee_bps }
        } else {
            CpmmPool { reserve0: new_out, reserve1: new_in, fee_bps: self.fee_bps }
        };
        Ok((outcome, next))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        let Ok(zero_for_one) = two_token_direction(token_in, token_out) else { return 0.0 };
        let (reserve_in, reserve_out) = self.oriented(zero_for_one);
        if reserve_in.is_zero() {
            return 0.0;
        }
        let fee_factor = f64::from(BPS.saturating_sub(self.fee_bps)) / f64::from(BPS);
        f64::from(reserve_out) / f64::from(reserve_in) * fee_factor
    }

    /// floor(a·f·R_out / (R_in·10⁴ + a·f)) ≤ a·f·R_out / (R_in·10⁴): the input at the spot rate.
    /// (0 where the pair refuses every swap: an empty reserve or a bad direction.)
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        amount_in * self.spot_price(token_in, token_out)
    }
}

#[cfg(test)]
#[path = "cpmm_tests.rs"]
mod tests;

impl FromWire for CpmmPool {
    type Wire = CpmmWire;

    /// Builds the pool from its wire state and the kind's registry entry.
    fn from_wire(wire: CpmmWire, spec: &DexSpec) -> Result<Self, PoolInputError> {
        let Model::ConstantProduct { fee_bps } = spec.model else {
            return Err(PoolInputError::WrongModel { dex: spec.dex, model: "constant_product" });
        };
        let max_reserve = U256::from((1u128 << 112) - 1);
        let [r0, r1] = wire.reserves;
        if r0.0 > max_reserve || r1.0 > max_reserve {
            return Err(PoolInputError::Invalid("reserves exceed uint112".into()));
        }
        Ok(CpmmPool { reserve0: r0.0, reserve1: r1.0, fee_bps })
    }
}
