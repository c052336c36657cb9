//! The first rate and the bound curve the convex search uses: for any run of swaps in one
//! direction (at most `MAX_SWAPS_PER_POOL`), a total output of at most the integral of a rate that
//! starts at the anchor's price times one less the direction's stored fee and falls with the
//! punishment the run stores, capped by the output reserve.
//!
//! Why it bounds the exact swap (`mod.rs`). Write P for the price of X in Y (the anchor over 2⁹⁶,
//! squared), I for the reserves' value in Y (X·P + Y), m for the maximum punishment as a fraction
//! (2²⁴ for the 100 % sentinel, over 2²⁴) and f₀ for the direction's stored fee (over 2²⁴).
//! - Gross: the anchor is fixed between the operator's updates, so a swap of a grosses at most
//!   a·P selling X (a/P selling Y): the input at the anchor, floored twice.
//! - Fee: a swap's fee is the stored fee plus its punishment, ⌈m·w/I⌉ (w the input's value in Y,
//!   all of m once w reaches I), and the swap stores that sum: along a run the j-th swap's fee is
//!   at least f₀ + m·(w₁ + … + w_j)/I_j, the run's value so far over the inventory then. The fee
//!   is floored off the gross (one unit short at most) and multiplied for a caller the pool does
//!   not whitelist (only more).
//! - The inventory barely moves: a swap adds its input and removes its gross (fee included) from
//!   the reserves, so I changes only by the floors, by at most √P + P + 1 a swap (the floored
//!   gross short of the input's value). With I_max = I + 65·(√P + P + 2), each swap's w is below
//!   I_max (its gross is within the output reserve) and m·w_j/I_j ≥ m·w_j/I_max.
//! - The value: selling Y it is the input itself; selling X it is the input at the anchor, floored
//!   twice, short of a·P by at most √P + 1 a swap, so the run's value after input A is at least
//!   A·P − 64·(√P + 1).
//!
//! So the j-th swap pays at most a_j·g(A_j) + 1, with A_j the run's input up to and including it
//! and g(t) = P_dir·(1 − f₀ − m·(v·t − c)⁺/I_max)⁺ (P_dir = P and v = P selling X, c = 64·(√P + 1);
//! 1/P, 1 and 0 selling Y), a non-increasing g: the sum of a_j·g(A_j) is at most its integral up
//! to the run's total. That integral is [`BoundCurve::falling`] with a slope of P_dir·m·v/I_max
//! after c/v; a run of many small swaps reaches it, one swap pays only the punishment of twice
//! that slope (so one route through the pool may sit up to half its punishment below the bound).
//! Each swap's gross leaves the output reserve, so the run pays at most that reserve. [`MARGIN`]
//! covers the f64 rounding of the rate. A stale or paused pool pays nothing: no curve. Tested in
//! `lunarbase_tests.rs`.
//!
//! The raw unit a swap. A swap pays gross − ⌊gross·e/2²⁴⌋ = ⌈gross·(1 − e/2²⁴)⌉: the fee's floor
//! is the trader's, up to 1 − 2⁻²⁴ raw out a swap, and a run collects it on each of its swaps
//! (`a_run_collects_the_fees_floor_on_each_swap`: 64 swaps of about $4 on the devnet's cbBTC venue
//! pay more than 60 raw cbBTC above the integral), so the integral alone is no bound: it is raised
//! by one raw unit for each of `MAX_SWAPS_PER_POOL` swaps, spread on the first 64 raw units in
//! (`bound_curve.rs`). Not carried once per venue: that run is one plan's 64 routes.
//!
//! A tighter bound, proven and not used. No swap pays more than its gross, at most its input at
//! the anchor's price, and a swap's floor is at most its fee, so the least of P_dir·A and the
//! integral raised by 64 raw units ([`BoundCurve::tangents`] on the integral's tangents) bounds
//! every run too, below this curve (but where one raw unit in pays more than a raw unit of fee, on
//! the first 64 raw units in, by at most 64 raw units out): its first raw units pay the anchor's price, not
//! a raw unit each (600 times the price selling USDC for cbBTC), and its allowance is the fee of the
//! total up to 64 raw units (about 50 raw cbBTC of $100 at the devnet venue's 3 bps). On the
//! embedded market one keeper tick later (`test/routeQualityEmbedded.test.ts`, second describe) it
//! brings USDC→cbETH and USDC→BRETT 3-hop $100 from 7.8 to 4.0 bps, but the dual then ends far from
//! its minimum on DAI→DEGEN 3-hop $100: 12.50 bps against 0.66 with this curve, water-filling's plan
//! the same, the relaxation no looser (the curve is no higher there but for 10⁻¹⁷ WETH), so the
//! solve's prices are:
//! the line at the anchor's price is a corner the dual stops on, as on the sampled curves'
//! (docs/solver-optimizer.md, *The families bounded beside their model*).

use super::{LunarbasePool, MAX_FEE};
use crate::pools::bound_curve::{BoundCurve, FallingRate};
use crate::pools::two_token_direction;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;

/// Relative margin on the first rate, for its rounding in f64 (a handful of ulps).
const MARGIN: f64 = 1e-12;
/// Raw units one swap may pay beyond the rate: the floored fee (module docs).
const SLACK_UNITS: f64 = 1.0;
const Q96: f64 = 79_228_162_514_264_337_593_543_950_336.0;
const Q24: f64 = 16_777_216.0;

impl LunarbasePool {
    /// The price of X in Y, raw units, as a real number (0 for a zero anchor).
    pub(super) fn price_x_in_y(&self) -> f64 {
        let p = f64::from(self.anchor) / Q96;
        p * p
    }

    /// Raw out per raw in at zero size, the stored fee taken (the punishment of a zero input is
    /// 0); None for a bad pair, a zero anchor, or a pool that refuses every swap (stale, paused).
    pub fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        let x_to_y = two_token_direction(token_in, token_out).ok()?;
        if self.paused || !self.fresh() || self.anchor.is_zero() {
            return None;
        }
        let price = self.price_x_in_y();
        let price = if x_to_y { price } else { 1.0 / price };
        let fee = if x_to_y { self.fee_bid } else { self.fee_ask };
        let keep = (Q24 - f64::from(fee.min(MAX_FEE))) / Q24;
        let rate = price * keep;
        (rate.is_finite() && rate > 0.0).then_some(rate)
    }

    /// The rate a run of swaps in one direction cannot beat on average (the fee's floors aside), as
    /// [`FallingRate`] from the first rate, and the output reserve; None when the pool cannot trade
    /// that way.
    pub(super) fn fee_taken_rate(
        &self,
        token_in: usize,
        token_out: usize,
    ) -> Option<(FallingRate, f64)> {
        let x_to_y = token_in == 0;
        let rate = self.first_rate(token_in, token_out)? * (1.0 + MARGIN);
        let cap = f64::from(if x_to_y { self.reserve_y } else { self.reserve_x });
        let p = self.price_x_in_y();
        let swaps = f64::from(MAX_SWAPS_PER_POOL);
        let drift = p.sqrt() + p + 2.0;
        let inventory =
            (f64::from(self.reserve_x) * p + f64::from(self.reserve_y) + (swaps + 1.0) * drift)
                * (1.0 + MARGIN);
        let punishment =
            if self.max_punishment == MAX_FEE { 1.0 } else { f64::from(self.max_punishment) / Q24 };
        let (price, value_per_in, value_short) =
            if x_to_y { (p, p, swaps * (p.sqrt() + 1.0)) } else { (1.0 / p, 1.0, 0.0) };
        let falling = FallingRate {
            rate,
            flat: value_short / value_per_in,
            slope: price * punishment * value_per_in / inventory,
        };
        Some((falling, cap))
    }

    /// The bound on what any run of swaps `token_in` → `token_out` pays in total; None when the
    /// pool cannot trade that way.
    pub fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        let (falling, cap) = self.fee_taken_rate(token_in, token_out)?;
        BoundCurve::falling(falling, SLACK_UNITS, cap)
    }
}
