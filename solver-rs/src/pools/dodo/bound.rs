//! The PMM's marginal rate and the bound curve the convex search uses: for any run of swaps in one
//! direction, a total output of at most min(slack + ∫₀ᵗ P(s) ds, output reserve), P(s) the
//! marginal rate (fees taken, with a margin) of the state **one** swap of s leaves, computed in
//! real numbers from the PMM's closed forms per R state (`real.rs`, at the pool's own floored
//! reciprocal of i on the quote side) and integrated by left steps.
//!
//! Why it bounds a run (in real numbers; selling base, the quote side is its mirror). Within one
//! swap the pool moves along the PMM curve of its targets; after it, the LP fee stays in the pool:
//! the output side holds more than that curve, the re-derived target rises and the next swap
//! prices higher. So a run can pay more than one swap of its total (why the old bound was the
//! first rate times the input). At a given input the price rises with what the output side holds,
//! so: (1) every swap of a run starts on or above the first swap's curve and pays at least its
//! stretch of it, so after a total s the run holds at most what one swap of s leaves; (2) within
//! a swap the run's curve stays at or below the one-swap states further on (the one-swap state
//! keeps the fee on all it paid). Hence the run's price at each total s is at most P(s), and its
//! output at most ∫ P. Past an R crossing the pool prices from the target it stored there, and a
//! run's has risen by the fees it kept: P there takes the highest such target (`real.rs`). P only
//! falls (along a curve the price falls faster than the kept fee raises it), so left steps bound
//! the integral; each step's rate is the largest at or after its node all the same. The steps'
//! gap is about half the rate's fall over a step: [`DROP`] near the first rate, more further on.
//! Tested, not only argued: `dodo_tests.rs` (runs of 8 swaps, runs of 64 swaps of a few raw units
//! and single swaps, never above; over single swaps the median gap 0.82 bps, the 90th percentile
//! 58.6 bps at `CROSSCHECK_CASES=3000`).
//!
//! The pools' roundings mostly favour the pool, save these: the quadratic's solution takes a
//! floored square root and a floored b, each moving V2 by up to 1/(2(1 − k)) units, and (0 < k < 1)
//! a 4ac floored at `mulFloor(k, V0)·V0`, up to 4(1 − k)·V0 + 1 short, which moves V2 by up to
//! 1/(2√(k(1 − k))) units whatever V0; the fees' floors give the trader 2 more. So a swap may pay up
//! to 2/(1 − k) + 2 + 1/(2√(k(1 − k))) + 1 units more than the real curve ([`per_swap_slack`], for
//! the `MAX_SWAPS_PER_POOL` swaps of a plan, granted at any input above zero: `pools/bound_curve.rs`,
//! so the curve's first piece is the pool's price, not that slack a raw unit), and the
//! targets re-derived after each swap drift by
//! their roundings ([`MARGIN`]). Tested in `dodo_tests.rs`.
//!
//! One more rounding, once a run: the swap that brings R back to one (selling quote below one,
//! base above one) pays the whole way back, B − B0 (Q − Q0), for a target the pool re-derived
//! rounding down (`solve_for_target`). A target δ units short lets that swap pay δ units of its
//! input side's worth more than the curve, at most the rate at R one; a run in one direction
//! crosses one at most once (R only moves one way), so [`crossing_slack`] is added once (to the
//! allowance: a run of one swap may cross), and
//! with it the lump the back-to-one swap pays beyond the curve where the pool's target was derived
//! at its floored reciprocal of i (`RealPmm::crossing_lump`; large for a large i).
//! The target's shortfall δ, in units of its side (V1 that side's reserve, Δ the other side's
//! excess, k and i as reals, 10^18 the scale): the price i (or its floored reciprocal: Δ/10^18
//! a unit of i) and for K above 0 the floored square root (2 units of 10^-18, plus Δ/(2·10^18)
//! on the branch that divides before it multiplies) divided by 2k, then the floored premium and
//! the floored product: δ ≤ 2 + Δ/10^18 + V1·((2 + Δ/(2·10^18))/(2k) + 1)/10^18.

use super::pmm::{RState, ONE};
use super::real::RealPmm;
use super::DodoPool;
use crate::math::U256;
use crate::pools::bound_curve::BoundCurve;
use crate::pools::two_token_direction;

/// Relative margin on the first rate, for the re-derived targets' rounding.
const MARGIN: f64 = 1e-9;
/// Units a swap may pay beyond the real curve for its root and b, times 1/(1 − k) (k < 1), plus
/// this many for the fees' floors.
const SLACK_UNITS: f64 = 2.0;
/// The first node: the input that takes this much of the output reserve at the first rate.
const FIRST_NODE: f64 = 1e-7;
/// The most a node's input is of the one before it.
const RATIO: f64 = 1.25;
/// The fall of the rate a step may take, relative, near the first rate: the gap the steps leave
/// is about half of it, relative to the output.
const DROP: f64 = 1e-4;
/// The rate, relative to the first, below which the last one runs on.
const LAST_RATE: f64 = 1e-3;
/// At most this many nodes.
const MAX_NODES: usize = 4000;

/// Raw units a swap may pay beyond the real curve (module docs), k as a real: the floored square
/// root and b, 1/(2(1 − k)) each on V2 (below [`SLACK_UNITS`]/(1 − k)), the fees' floors (the
/// last [`SLACK_UNITS`]) and, for 0 < k < 1, the quadratic's 4ac floored at `mulFloor(k, V0)·V0`:
/// up to 4(1 − k)·V0 + 1 short, which lowers the root by up to that over 2√(4ac) and V2 by that
/// over 2(1 − k), at most 1/(2√(k(1 − k))) whatever V0 (16.6 units at k = 0.0009: a DVM's one
/// raw unit of quote paid 5.4 raw base above the first rate, over the 4 units allowed before).
fn per_swap_slack(k: U256) -> f64 {
    if k >= ONE {
        return SLACK_UNITS;
    }
    let one = f64::from(ONE);
    // 1 − k from the integers: k one unit short of one is 10^-18 from it, not 0.
    let (k, rest) = (f64::from(k) / one, f64::from(ONE.saturating_sub(k)) / one);
    let four_ac = if k > 0.0 { (1.0 + MARGIN) / (2.0 * (k * rest).sqrt()) + 1.0 } else { 0.0 };
    SLACK_UNITS / rest + SLACK_UNITS + four_ac
}

impl DodoPool {
    /// The marginal rate at zero size, raw out per raw in, fees taken; None for a bad pair or an
    /// empty side.
    pub fn marginal_rate(&self, token_in: usize, token_out: usize) -> Option<f64> {
        let sell_base = two_token_direction(token_in, token_out).ok()?;
        let s = &self.state;
        let one = f64::from(ONE);
        let (i, k) = (f64::from(s.i) / one, f64::from(s.k) / one);
        // 1 − k + k·(V0/V)²: the curve's factor where the side V is short of its target V0.
        let factor = |v0: f64, v: f64| (v > 0.0).then(|| 1.0 - k + k * (v0 / v) * (v0 / v));
        let (b, q, b0, q0) = (f64::from(s.b), f64::from(s.q), f64::from(s.b0), f64::from(s.q0));
        let price = match (sell_base, s.r) {
            (true, RState::One) => i,
            (true, RState::AboveOne) => i * factor(b0, b)?,
            (true, RState::BelowOne) => i / factor(q0, q)?,
            (false, RState::One) => 1.0 / i,
            (false, RState::AboveOne) => 1.0 / (i * factor(b0, b)?),
            (false, RState::BelowOne) => factor(q0, q)? / i,
        };
        let rate = price * self.keep();
        rate.is_finite().then_some(rate)
    }

    /// The bound on what any run of swaps `token_in` → `token_out` pays in total; None when the
    /// pool cannot trade that way. Built once per state and direction (`pools/curve_memo.rs`): up
    /// to 4,000 steps, about a millisecond.
    pub fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        two_token_direction(token_in, token_out).ok()?;
        let build = || self.build_bound_curve(token_in, token_out);
        self.curves.get_or_build(token_in, build).cloned()
    }

    /// The curve itself, from the PMM's rates after one swap of each size.
    fn build_bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        let first = self.marginal_rate(token_in, token_out)?;
        let cap = f64::from(if token_out == 0 { self.state.b } else { self.state.q });
        let per_swap = per_swap_slack(self.state.k);
        let real = RealPmm::of(&self.state);
        let seller = if token_in == 0 { real } else { real.mirrored() };
        let lump = seller.crossing_lump() * self.keep() * (1.0 + MARGIN);
        let once = self.crossing_slack(token_in == 0).unwrap_or(0.0) + lump;
        let steps = self.rate_steps(token_in, token_out, first, cap);
        BoundCurve::steps(&steps, per_swap, once, cap)
    }

    /// The rates after one exact swap of each size (module docs), as pieces: each node's rate up
    /// to the next node, never less than a later node's, times the margin. The nodes grow by at
    /// most [`RATIO`] and, where the rate falls, by a width over which the last step's fall would
    /// take [`DROP`] of the rate; they stop where the pieces reach the cap, the rate falls below
    /// [`LAST_RATE`] of the first, or a swap fails (the last rate runs on: the rate only falls).
    fn rate_steps(
        &self,
        token_in: usize,
        token_out: usize,
        first: f64,
        cap: f64,
    ) -> Vec<(f64, f64)> {
        let sell_base = token_in == 0 && token_out == 1;
        let real = RealPmm::of(&self.state);
        let seller = if sell_base { real } else { real.mirrored() };
        let (kept, keep) = (f64::from(self.lp_fee_rate) / f64::from(ONE), self.keep());
        let mut nodes = vec![(0.0, first)];
        let (mut last_at, mut last_rate) = (0.0, first);
        let (mut at, mut value) = ((FIRST_NODE * cap / first).max(1.0), 0.0);
        while nodes.len() < MAX_NODES {
            let Some(after) = seller.after_selling_base(at, kept) else { break };
            let Some(price) = after.base_price() else { break };
            let rate = price * keep;
            if !rate.is_finite() {
                break;
            }
            nodes.push((at, rate));
            value += last_rate * (at - last_at);
            if value >= cap || rate < first * LAST_RATE {
                break;
            }
            let fall = (last_rate - rate) / (at - last_at);
            // The fall a step may take grows as the rate falls (a large trade's gap is relative
            // to its larger output): DROP at the first rate, 21 times it near zero.
            let drop = DROP * (1.0 + 20.0 * (1.0 - rate / first));
            let by_fall = if fall > 0.0 { drop * rate / fall } else { f64::INFINITY };
            (last_at, last_rate) = (at, rate);
            at += (at * (RATIO - 1.0)).min(by_fall).max(1.0);
        }
        let mut pieces = Vec::with_capacity(nodes.len());
        let (mut floor, mut next_at) = (0.0f64, f64::INFINITY);
        for &(node_at, rate) in nodes.iter().rev() {
            floor = floor.max(rate);
            pieces.push((next_at - node_at, floor * (1.0 + MARGIN)));
            next_at = node_at;
        }
        pieces.reverse();
        pieces
    }

    /// What the swap that brings R back to one may pay beyond the curve, raw units out (module
    /// docs); None when no run this way crosses (R already one, or moving away from it).
    fn crossing_slack(&self, sell_base: bool) -> Option<f64> {
        let s = &self.state;
        let scale = f64::from(ONE);
        let (v1, excess) = match (sell_base, s.r) {
            (true, RState::AboveOne) => (f64::from(s.b0), f64::from(s.q) - f64::from(s.q0)),
            (false, RState::BelowOne) => (f64::from(s.q0), f64::from(s.b) - f64::from(s.b0)),
            _ => return None,
        };
        // V1 at the crossing is the target itself (the reserve has come back to it).
        let k = f64::from(s.k) / scale;
        let root_error = 2.0 + excess / (2.0 * scale);
        let premium_error = if k > 0.0 { (root_error / (2.0 * k) + 1.0) / scale } else { 0.0 };
        let shortfall = 2.0 + excess / scale + v1 * (1.0 + MARGIN) * premium_error;
        // The rate at R one: i selling base, 1/i selling quote, raw out per raw in, fees taken.
        let i = f64::from(s.i) / scale;
        let at_one = if sell_base { i } else { 1.0 / i } * self.keep();
        Some(shortfall * at_one * (1.0 + MARGIN))
    }
}
