//! Venues priced from sampled quotes (PROPSWAP, TESSERA, ELFOMOFI, LUNARBASE, FELTIR, and any
//! pool that cannot be modelled exactly): a concave fit of the samples ([`curve`]) and a safety
//! margin floored off every output.

mod bound;
mod curve;
#[cfg(test)]
#[path = "sampled_tests.rs"]
mod tests;

pub use curve::ConcaveCurve;

use super::input::{FromWire, PoolInputError};
use super::registry::DexSpec;
use super::{two_token_direction, OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::decimal::parse_u256;
use crate::math::full_math::mul_div;
use crate::math::U256;
use crate::route::convex::curve::Curve;
use serde::Deserialize;
use std::sync::Arc;

/// Basis-point denominator of the safety margin.
pub const BPS: u32 = 10_000;

/// Wire state: the margin and each direction's samples, `[amountIn, amountOut]` decimal strings
/// in raw token units, amountIn strictly ascending. An empty list means no trading that way.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SampledWire {
    /// Safety margin in bps floored off every output, 0..=10 000.
    pub margin_bps: u32,
    /// Samples selling token0 for token1.
    pub zero_for_one: Vec<[String; 2]>,
    /// Samples selling token1 for token0.
    pub one_for_zero: Vec<[String; 2]>,
}

/// A sampled venue. Quotes move along each direction's curve from the input already consumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampledPool {
    /// Safety margin in bps, 0..=10 000, floored off every output.
    pub margin_bps: u32,
    /// Curves by direction: index 0 sells token0, index 1 sells token1. Shared, so `apply` is cheap.
    curves: [Arc<ConcaveCurve>; 2],
    /// Raw input already swapped through each direction's curve by `apply`.
    consumed_in: [U256; 2],
}

fn parse_samples(
    samples: &[[String; 2]],
    field: &str,
) -> Result<Vec<(U256, U256)>, PoolInputError> {
    let invalid = |why: String| PoolInputError::Invalid(format!("sampled {why}"));
    let mut parsed = Vec::with_capacity(samples.len());
    for (i, [amount_in, amount_out]) in samples.iter().enumerate() {
        let x = parse_u256(amount_in)
            .map_err(|e| invalid(format!("{field}[{i}][0] (amountIn): {e}")))?;
        let y = parse_u256(amount_out)
            .map_err(|e| invalid(format!("{field}[{i}][1] (amountOut): {e}")))?;
        if x.is_zero() {
            return Err(invalid(format!(
                "{field}[{i}][0] (amountIn) is 0: samples start above zero"
            )));
        }
        if let Some(&(prev, _)) = parsed.last() {
            if x <= prev {
                return Err(invalid(format!(
                    "{field}[{i}][0] (amountIn) {x} is not above the previous {prev}: inputs must strictly ascend"
                )));
            }
        }
        parsed.push((x, y));
    }
    Ok(parsed)
}

impl SampledPool {
    /// A pool from validated samples (inputs > 0, strictly ascending) and a margin ≤ 10 000 bps.
    pub fn new(
        margin_bps: u32,
        zero_for_one: &[(U256, U256)],
        one_for_zero: &[(U256, U256)],
    ) -> Self {
        SampledPool {
            margin_bps: margin_bps.min(BPS),
            curves: [
                Arc::new(ConcaveCurve::from_samples(zero_for_one)),
                Arc::new(ConcaveCurve::from_samples(one_for_zero)),
            ],
            consumed_in: [U256::ZERO; 2],
        }
    }

    /// The fitted curve selling token `token_in` (0 or 1).
    pub fn curve(&self, token_in: usize) -> Option<&ConcaveCurve> {
        self.curves.get(token_in).map(|c| c.as_ref())
    }

    /// Raw input already consumed selling token `token_in` (0 or 1).
    pub fn consumed_in(&self, token_in: usize) -> U256 {
        self.consumed_in.get(token_in).copied().unwrap_or(U256::ZERO)
    }

    /// Output for `amount_in` after `consumed` along `curve`, margin included, rounded down.
    fn quote(&self, side: usize, amount_in: U256) -> Result<U256, PoolError> {
        let curve = &self.curves[side];
        let start = self.consumed_in[side];
        let end = start.checked_add(amount_in).ok_or(PoolError::InsufficientLiquidity)?;
        // Far end rounded down and near end rounded up: a trade split in two never gets more
        // than the exact curve pays between its ends.
        let gross = curve.value_round_down(end)?.saturating_sub(curve.value_round_up(start)?);
        mul_div(gross, U256::from(BPS.saturating_sub(self.margin_bps)), U256::from(BPS))
    }
}

impl PoolModel for SampledPool {
    type Memo = ();

    /// The fitted curve from the consumed input on (`bound.rs`).
    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        two_token_direction(token_in, token_out).ok()?;
        bound::pieces_of(self, token_in).map(Curve::Piecewise)
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        two_token_direction(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok(SwapOutcome::flat(U256::ZERO));
        }
        let amount_out = self.quote(token_in, amount_in)?;
        // A venue paying nothing is a refusal, as a pair reverting on a zero output is.
        if amount_out.is_zero() {
            return Err(PoolError::InsufficientLiquidity);
        }
        Ok(SwapOutcome::flat(amount_out))
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let outcome = self.amount_out(token_in, token_out, amount_in)?;
        let mut next = self.clone();
        // The quote checked this sum already; checked again rather than trusted to a wrapping `+`.
        next.consumed_in[token_in] = next.consumed_in[token_in]
            .checked_add(amount_in)
            .ok_or(PoolError::InsufficientLiquidity)?;
        Ok((outcome, next))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        if two_token_direction(token_in, token_out).is_err() {
            return 0.0;
        }
        let margin_factor = f64::from(BPS.saturating_sub(self.margin_bps)) / f64::from(BPS);
        self.curves[token_in].slope_after(self.consumed_in[token_in]) * margin_factor
    }

    /// The curve is concave, so from the consumed input on it rises at most at the slope of the
    /// segment starting there; the far end rounds down, the near end up, and the margin floors.
    /// So the output is at most the input at the spot rate (0 past the last sample).
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        amount_in * self.spot_price(token_in, token_out)
    }
}

impl FromWire for SampledPool {
    type Wire = SampledWire;

    /// Builds the pool from its wire state; refuses a margin over 10 000 bps and malformed samples,
    /// naming the field. Accepted for every modelled kind, so the registry entry is not consulted.
    fn from_wire(wire: SampledWire, _: &DexSpec) -> Result<Self, PoolInputError> {
        if wire.margin_bps > BPS {
            return Err(PoolInputError::Invalid(format!(
                "sampled marginBps is {}: at most {BPS}",
                wire.margin_bps
            )));
        }
        let zero_for_one = parse_samples(&wire.zero_for_one, "zeroForOne")?;
        let one_for_zero = parse_samples(&wire.one_for_zero, "oneForZero")?;
        Ok(SampledPool::new(wire.margin_bps, &zero_for_one, &one_for_zero))
    }
}
