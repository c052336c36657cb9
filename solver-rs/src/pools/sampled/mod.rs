//! Venues priced from sampled quotes (PROPSWAP, TESSERA, ELFOMOFI, FELTIR, Curve's CryptoSwap
//! pools, and any pool that cannot be modelled exactly): a concave fit of the samples ([`curve`])
//! per direction (two tokens) or per ordered pair (three or four, one state: [`sides`]) and a
//! safety margin floored off every output.

mod bound;
mod curve;
mod sides;
#[cfg(test)]
#[path = "sampled_tests.rs"]
mod tests;
#[cfg(test)]
#[path = "venue_tests.rs"]
mod venue_tests;
mod wire;

pub use curve::ConcaveCurve;

use super::{OneWay, PoolError, PoolModel, SwapOutcome};
use crate::math::full_math::mul_div;
use crate::math::U256;
use crate::route::convex::curve::Curve;
use sides::Sides;
use std::sync::Arc;
pub use wire::{SampledPairWire, SampledWire, MAX_TOKENS};

/// One ordered pair's validated samples: `(token_in, token_out, [(amountIn, amountOut), …])`.
pub type PairSamples = (usize, usize, Vec<(U256, U256)>);

/// Basis-point denominator of the safety margin.
pub const BPS: u32 = 10_000;

/// A sampled venue. Quotes move along each side's curve from the input already consumed; a venue
/// of more than two tokens is one state, traded through one ordered pair (`sides.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampledPool {
    /// Safety margin in bps, 0..=10 000, floored off every output.
    pub margin_bps: u32,
    sides: Sides,
}

impl SampledPool {
    /// A two-token pool from validated samples (inputs > 0, strictly ascending) and a margin ≤
    /// 10 000 bps.
    pub fn new(
        margin_bps: u32,
        zero_for_one: &[(U256, U256)],
        one_for_zero: &[(U256, U256)],
    ) -> Self {
        SampledPool {
            margin_bps: margin_bps.min(BPS),
            sides: Sides::Two {
                curves: [
                    Arc::new(ConcaveCurve::from_samples(zero_for_one)),
                    Arc::new(ConcaveCurve::from_samples(one_for_zero)),
                ],
                consumed_in: [U256::ZERO; 2],
            },
        }
    }

    /// A venue of `count` tokens (2 to [`MAX_TOKENS`]) from validated samples per ordered pair
    /// `(token_in, token_out, samples)`, indices below `count`; a pair not given does not trade.
    /// Two tokens make the two-direction pool of [`SampledPool::new`].
    pub fn of_pairs(margin_bps: u32, count: usize, pairs: &[PairSamples]) -> Self {
        let count = count.clamp(2, MAX_TOKENS);
        let samples_of = |i: usize, o: usize| {
            pairs.iter().find(|p| (p.0, p.1) == (i, o)).map_or(&[][..], |p| &p.2[..])
        };
        if count == 2 {
            return SampledPool::new(margin_bps, samples_of(0, 1), samples_of(1, 0));
        }
        // count ≤ 4: 16 curves at most, in the order `token_in · count + token_out`.
        let curves: Vec<ConcaveCurve> = (0..count)
            .flat_map(|i| (0..count).map(move |o| (i, o)))
            .map(|(i, o)| ConcaveCurve::from_samples(samples_of(i, o)))
            .collect();
        SampledPool {
            margin_bps: margin_bps.min(BPS),
            sides: Sides::Venue { count, curves: curves.into(), traded: None },
        }
    }

    /// The fitted curve selling `token_in` for `token_out`, while the venue prices that pair.
    pub fn curve(&self, token_in: usize, token_out: usize) -> Option<&ConcaveCurve> {
        self.sides.curve_from(token_in, token_out).ok().map(|(curve, _)| curve)
    }

    /// Raw input already consumed selling `token_in` for `token_out` (0 for a pair not priced).
    pub fn consumed_in(&self, token_in: usize, token_out: usize) -> U256 {
        self.sides.curve_from(token_in, token_out).map_or(U256::ZERO, |(_, consumed)| consumed)
    }

    /// Output for `amount_in` from the consumed input on along the pair's curve, margin
    /// included, rounded down.
    fn quote(&self, token_in: usize, token_out: usize, amount_in: U256) -> Result<U256, PoolError> {
        let (curve, start) = self.sides.curve_from(token_in, token_out)?;
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
        bound::pieces_of(self, token_in, token_out).map(Curve::Piecewise)
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        self.sides.curve_from(token_in, token_out)?;
        if amount_in.is_zero() {
            return Ok(SwapOutcome::flat(U256::ZERO));
        }
        let amount_out = self.quote(token_in, token_out, amount_in)?;
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
        // Nothing sold moves nothing (and fixes no pair of a venue).
        if amount_in.is_zero() {
            return Ok((outcome, self.clone()));
        }
        // The quote checked the moved sum already; `after` checks it again rather than wrap.
        let sides = self.sides.after(token_in, token_out, amount_in)?;
        Ok((outcome, SampledPool { margin_bps: self.margin_bps, sides }))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        let Ok((curve, consumed)) = self.sides.curve_from(token_in, token_out) else {
            return 0.0;
        };
        let margin_factor = f64::from(BPS.saturating_sub(self.margin_bps)) / f64::from(BPS);
        curve.slope_after(consumed) * margin_factor
    }

    /// The curve is concave, so from the consumed input on it rises at most at the slope of the
    /// segment starting there; the far end rounds down, the near end up, and the margin floors.
    /// So the output is at most the input at the spot rate (0 past the last sample).
    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        amount_in * self.spot_price(token_in, token_out)
    }

    fn token_count(&self) -> usize {
        self.sides.token_count()
    }
}
