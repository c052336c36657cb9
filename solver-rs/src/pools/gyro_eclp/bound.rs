//! The E-CLP's bound curve for the convex search, and its spot rate for ranking.
//!
//! Why the bound holds: the E-CLP trades only at prices within [α, β] (token 1 per token 0, in
//! upscaled units): selling token 0 never gets more than β of token 1 per unit, selling token 1
//! never more than 1/α of token 0; the fee is proportional; scaling converts raw units; no swap
//! pays more than the output balance. The published math rounds every step in the pool's favour
//! (the invariant vector (r + 2·err, r)), save the downscaling's and upscaling's floors, which move
//! a swap's output by at most a unit or two ([`SLACK_UNITS`] per swap); [`MARGIN`] covers the
//! floating point. Tested in `gyro_eclp_tests.rs`.

use super::{e18, GyroEclpPool};
use crate::math::U256;
use crate::pools::bound_curve::BoundCurve;
use crate::pools::{two_token_direction, PoolModel};

const MARGIN: f64 = 1e-9;
const SLACK_UNITS: f64 = 2.0;

impl GyroEclpPool {
    /// The bound on what any run of swaps `token_in` → `token_out` pays in total.
    pub fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        let in_is_0 = two_token_direction(token_in, token_out).ok()?;
        let one = f64::from(e18());
        let price = if in_is_0 {
            f64::from(self.params.beta.magnitude()) / one
        } else {
            one / f64::from(self.params.alpha.magnitude())
        };
        let keep = 1.0 - f64::from(self.swap_fee) / one;
        let scale =
            f64::from(self.scaling_factors[token_in]) / f64::from(self.scaling_factors[token_out]);
        let rate = price * keep * scale * (1.0 + MARGIN);
        BoundCurve::line(rate, SLACK_UNITS, f64::from(self.balances[token_out]))
    }

    /// What a small trade (a millionth of the input balance) pays per unit: an estimate for
    /// ranking only.
    pub fn small_trade_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        two_token_direction(token_in, token_out).ok()?;
        let amount = self.balances[token_in]
            .checked_div(U256::from(1_000_000u64))?
            .saturating_add(U256::from(1));
        let out = self.amount_out(token_in, token_out, amount).ok()?.amount_out;
        Some(f64::from(out) / f64::from(amount))
    }
}
