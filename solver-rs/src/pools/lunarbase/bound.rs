//! The first rate and the bound curve the convex search uses: a total output of at most
//! min(slack + rate₀·input, output reserve) for any run of swaps in one direction, rate₀ the
//! anchor's price (p² selling X, 1/p² selling Y, p = anchor / 2⁹⁶) times one less the direction's
//! stored fee, with a margin.
//!
//! Why it bounds the exact swap (`mod.rs`): the anchor is fixed between the operator's updates,
//! so the gross output is the input at that price, floored twice (never above it in real numbers).
//! The fee taken is ⌊gross·f/2²⁴⌋ (times the caller's multiplier, which only takes more) with f the
//! stored fee plus the punishment, and a swap stores that f: along a run in one direction the fee
//! never falls below the first stored fee, so each swap pays at most gross·(1 − f₀/2²⁴) + 1 (the
//! floored fee is at most one unit short). Each swap's gross output leaves the output reserve and
//! no swap pays beyond it, so the run pays at most that reserve in total. The slack is one unit
//! per swap for the `MAX_SWAPS_PER_POOL` swaps of a plan; [`MARGIN`] covers the rate's f64
//! rounding. A stale or paused pool pays nothing: no line. Tested in `lunarbase_tests.rs`.

use super::{LunarbasePool, MAX_FEE};
use crate::pools::bound_line::BoundLine;
use crate::pools::two_token_direction;

/// Relative margin on the first rate, for its rounding in f64 (a handful of ulps).
const MARGIN: f64 = 1e-12;
/// Units one swap may pay beyond the rate: the floored fee.
const SLACK_UNITS: f64 = 1.0;
const Q96: f64 = 79_228_162_514_264_337_593_543_950_336.0;
const Q24: f64 = 16_777_216.0;

impl LunarbasePool {
    /// Raw out per raw in at zero size, the stored fee taken (the punishment of a zero input is
    /// 0); None for a bad pair, a zero anchor, or a pool that refuses every swap (stale, paused).
    pub fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        let x_to_y = two_token_direction(token_in, token_out).ok()?;
        if self.paused || !self.fresh() || self.anchor.is_zero() {
            return None;
        }
        let p = f64::from(self.anchor) / Q96;
        let price = if x_to_y { p * p } else { 1.0 / (p * p) };
        let fee = if x_to_y { self.fee_bid } else { self.fee_ask };
        let keep = (Q24 - f64::from(fee.min(MAX_FEE))) / Q24;
        let rate = price * keep;
        (rate.is_finite() && rate > 0.0).then_some(rate)
    }

    /// The bound on what any run of swaps `token_in` → `token_out` pays in total; None when the
    /// pool cannot trade that way.
    pub fn bound_line(&self, token_in: usize, token_out: usize) -> Option<BoundLine> {
        let rate = self.first_rate(token_in, token_out)? * (1.0 + MARGIN);
        let cap = f64::from(if token_out == 0 { self.reserve_x } else { self.reserve_y });
        BoundLine::new(rate, SLACK_UNITS, cap)
    }
}
