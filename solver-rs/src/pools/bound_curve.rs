//! A concave bound on what a run of swaps in one direction pays in total, as linear pieces, for the
//! families that prove their curve beside their model (DODO: `dodo/bound.rs`, E-CLP:
//! `gyro_eclp/bound.rs`, LunarBase: `lunarbase/bound.rs`); the convex search takes the pieces as
//! they are (`pools/shape/piecewise.rs`). Three shapes:
//! - [`BoundCurve::line`]: a first rate up to a cap, for a family whose marginal rate only falls
//!   as it is sold into and whose output the reserve caps;
//! - [`BoundCurve::falling`]: a rate flat for a stretch, then falling linearly to zero (the output
//!   the integral of it, a quadratic), for a family whose rate a run of swaps lowers by a known
//!   amount per unit sold (LunarBase's punishment). The quadratic is bounded by its tangents,
//!   spaced so that the gap at each corner is at most [`TOLERANCE`] of the output there;
//! - [`BoundCurve::tangents`]: the least of lines each above the whole of a concave curve (a
//!   tangent whose value and slope carry their errors, `gyro_eclp/bound.rs`), for a family whose
//!   run of swaps pays no more than the real curve of one swap of the total.
//! - [`BoundCurve::steps`]: pieces a family builds and proves itself (DODO's rates after one
//!   swap of each size, `dodo/bound.rs`).
//!
//! All allow for `slack_per_swap` raw units of rounding in the trader's favour on each of the
//! `MAX_SWAPS_PER_POOL` swaps of a plan, and are flat at the cap. Where that slack goes:
//! - `steps` and `tangents` (DODO, the E-CLP) hold it as an allowance, raw units out that any
//!   input above zero is granted on top of the pieces (as the constant product's curve holds its
//!   rounding as an offset at zero input, `shape/hyperbola.rs`). The curve stays concave (a jump
//!   at zero only), its first piece is the pool's own price, and the dual's term grants the
//!   allowance at any prices, its best trade never pinned at a corner. Spread over the first raw
//!   units instead (a run of n swaps takes at least n), the first 64 raw units each paid one swap's
//!   slack: 8 raw USDC per raw DAI on the devnet's DAI/USDC DSP, whose price is 10⁻¹², and the
//!   E-CLP's first few thousand raw units its highest price; the dual stopped on that corner
//!   unconverged (the bound up to 1,500 bps above the plan on the embedded market's 3-hop trades,
//!   docs/dex-kinds.md, DODO_V2 and GYROSCOPE_ECLP, *Route quality*).
//! - `line` and `falling` (LunarBase) spread it at `slack_per_swap` a raw unit over the first
//!   `MAX_SWAPS_PER_POOL` raw units, since a run of n swaps takes at least n raw units in.

use crate::math::U256;
use crate::pools::shape::{pieces_value, Piecewise};
use crate::pools::{OneWay, PoolError, PoolModel, SwapOutcome};
use crate::route::convex::curve::{Curve, MAX_SWAPS_PER_POOL};

/// A two-token family priced by its own swap (no ticks, no words to charge gas for), ranked by
/// its first rate and bounded by a [`BoundCurve`] it proves beside its model: its [`PoolModel`]
/// follows from these three.
pub trait CurveBounded: Sized {
    /// What the pool pays for `amount_in` and its state after.
    fn exact_swap(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(U256, Self), PoolError>;

    /// Raw out per raw in at zero size, for ranking only; None when the pool cannot trade so.
    fn first_rate(&self, token_in: usize, token_out: usize) -> Option<f64>;

    /// The bound on what any run of swaps `token_in` → `token_out` pays; None when the pool cannot
    /// trade that way.
    fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve>;
}

impl<T: CurveBounded> PoolModel for T {
    type Memo = ();

    fn side_curve(&self, token_in: usize, token_out: usize, _: OneWay) -> Option<Curve> {
        let curve = self.bound_curve(token_in, token_out)?;
        Some(Curve::Piecewise(Piecewise::with_allowance(curve.pieces(), curve.allowance)))
    }

    fn amount_out(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<SwapOutcome, PoolError> {
        Ok(SwapOutcome::flat(self.exact_swap(token_in, token_out, amount_in)?.0))
    }

    fn apply(
        &self,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, Self), PoolError> {
        let (out, next) = self.exact_swap(token_in, token_out, amount_in)?;
        Ok((SwapOutcome::flat(out), next))
    }

    fn spot_price(&self, token_in: usize, token_out: usize) -> f64 {
        self.first_rate(token_in, token_out).unwrap_or(0.0)
    }

    fn amount_out_bound(&self, token_in: usize, token_out: usize, amount_in: f64) -> f64 {
        self.bound_curve(token_in, token_out).map_or(0.0, |curve| curve.value(amount_in))
    }
}

/// The largest gap between the falling curve's tangents and the curve itself, relative to the
/// output at the corner: 0.1 bps.
pub const TOLERANCE: f64 = 1e-5;
/// At most this many tangents: past them the last one runs on (still above the curve).
const MAX_PIECES: usize = 400;

/// Linear pieces (width in raw input, rate raw out per raw in), rates non-increasing, flat past
/// the last, above an allowance any input above zero is granted.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundCurve {
    pieces: Vec<(f64, f64)>,
    /// Raw units out on top of the pieces for any input above zero: the rounding slack of a
    /// plan's swaps (module docs); 0 where the slack is spread over the first raw units.
    pub allowance: f64,
}

/// A line `value + slope·(t − at)` in raw units (t raw in, value raw out).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tangent {
    pub at: f64,
    pub value: f64,
    pub slope: f64,
}

/// A rate of `rate` raw out per raw in for the first `flat` raw units in, then `slope` less per
/// raw unit in, down to zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FallingRate {
    pub rate: f64,
    pub flat: f64,
    pub slope: f64,
}

impl BoundCurve {
    /// `rate` per raw unit up to `cap`; None when nothing can be paid.
    pub fn line(rate: f64, slack_per_swap: f64, cap: f64) -> Option<BoundCurve> {
        let valid = rate > 0.0 && rate.is_finite() && cap > 0.0;
        valid.then(|| BoundCurve::assemble(&[(f64::INFINITY, rate)], slack_per_swap, 0.0, cap))
    }

    /// The integral of `falling` up to `cap`: its tangents at points spaced so that each corner is
    /// at most [`TOLERANCE`] (relative) above the integral; None when nothing can be paid. A slope
    /// of zero (or not finite) is the line.
    pub fn falling(falling: FallingRate, slack_per_swap: f64, cap: f64) -> Option<BoundCurve> {
        let FallingRate { rate, flat, slope } = falling;
        if !(slope > 0.0 && slope.is_finite() && flat.is_finite() && flat >= 0.0) {
            return BoundCurve::line(rate, slack_per_swap, cap);
        }
        if !(rate > 0.0 && rate.is_finite() && cap > 0.0) {
            return None;
        }
        // The integral U(t) = rate·t − slope·(t − flat)²/2 past `flat`, flat past its peak at
        // `end`; its tangent at m has the slope rate − slope·(m − flat), and two tangents of a
        // quadratic meet halfway between their points. The first tangent is the line rate·t
        // itself (exact up to `flat`).
        let end = flat + rate / slope;
        let integral = |t: f64| rate * t - slope * (t - flat) * (t - flat) / 2.0;
        let (mut pieces, mut at, mut corner) = (Vec::new(), flat, 0.0);
        // A corner between tangents at m and m + d is slope·d²/8 above U: at most TOLERANCE of
        // U(m), and never a step shorter than the one where that bound and U ≈ rate·d meet.
        let shortest = 8.0 * TOLERANCE * rate / slope;
        while at < end && pieces.len() < MAX_PIECES {
            let step = (8.0 * TOLERANCE * integral(at) / slope).sqrt().max(shortest);
            let next = (at + step).min(end);
            let next_corner = (at + next) / 2.0;
            pieces.push((next_corner - corner, rate - slope * (at - flat)));
            (at, corner) = (next, next_corner);
        }
        if at < end {
            // The last tangent runs on to where it meets the peak's level.
            let last_rate = rate - slope * (at - flat);
            let width = (integral(end) - integral(at)) / last_rate + at - corner;
            pieces.push((width, last_rate));
        }
        Some(BoundCurve::assemble(&pieces, slack_per_swap, 0.0, cap))
    }

    /// Linear pieces (width raw in, rate raw out per raw in) as a family proved them, rates
    /// non-increasing, the last running on, up to `cap`, above an allowance of `slack_per_swap`
    /// for each of [`MAX_SWAPS_PER_POOL`] swaps and `slack_once` for one swap of the run; None
    /// when nothing can be paid.
    pub fn steps(
        pieces: &[(f64, f64)],
        slack_per_swap: f64,
        slack_once: f64,
        cap: f64,
    ) -> Option<BoundCurve> {
        let valid = pieces.first().is_some_and(|p| p.1 > 0.0 && p.1.is_finite()) && cap > 0.0;
        let allowance = slack_per_swap * f64::from(MAX_SWAPS_PER_POOL) + slack_once;
        valid.then(|| BoundCurve::above(pieces, allowance, cap))
    }

    /// The least of `rate`·t and `lines` (each `value + slope·(t − at)`, above the whole real
    /// curve), above an allowance of the slack of [`MAX_SWAPS_PER_POOL`] swaps, up to `cap`; None
    /// when nothing can be paid. The curve starts at the lowest of the lines at zero (the price
    /// now, where a family gives that line), not at a first raw unit paying the whole slack (a
    /// first rate of 129 raw per raw on an 18-decimal pair near par, which priced a middle token
    /// 100 times its worth in the dual's first-unit start), nor at `rate` for the raw units where
    /// the raised lines lie above it (the dual stopped on that corner). Walks the lower envelope
    /// from t = 0: from each line to the first one of a lower slope that meets it (a line of a
    /// higher slope is below only to the left).
    pub fn tangents(
        rate: f64,
        lines: &[Tangent],
        slack_per_swap: f64,
        cap: f64,
    ) -> Option<BoundCurve> {
        if !(rate > 0.0 && rate.is_finite() && cap > 0.0) {
            return None;
        }
        let allowance = slack_per_swap * f64::from(MAX_SWAPS_PER_POOL);
        // (intercept, slope) of every usable line, the first the rate from the origin.
        let mut all = vec![(0.0, rate)];
        all.extend(
            lines
                .iter()
                .filter(|l| l.value.is_finite() && l.slope.is_finite() && l.slope >= 0.0)
                .map(|l| (l.value - l.slope * l.at, l.slope)),
        );
        let start = all.iter().map(|l| l.0).fold(f64::INFINITY, f64::min);
        // At t = 0 the lowest line, of the lowest slope among equals.
        let mut current = all
            .iter()
            .copied()
            .filter(|l| l.0 == start)
            .fold((start, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a });
        let (mut at, mut pieces) = (0.0_f64, Vec::new());
        loop {
            // The next corner: the first meeting with a line of a lower slope.
            let next = all
                .iter()
                .filter(|l| l.1 < current.1)
                .map(|&l| (((l.0 - current.0) / (current.1 - l.1)).max(at), l))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1 .1.total_cmp(&b.1 .1)));
            let Some((corner, line)) = next else {
                pieces.push((f64::INFINITY, current.1));
                break;
            };
            pieces.push((corner - at, current.1));
            (at, current) = (corner, line);
        }
        // The envelope starts at the origin (the rate's line): a negative start is rounding (each
        // line is above a curve through the origin), and the pieces from 0 lie above it.
        Some(BoundCurve::above(&pieces, allowance, cap))
    }

    /// `curve`'s pieces above `allowance`, flat from where the two reach `cap` (the allowance
    /// alone at most `cap`).
    fn above(curve: &[(f64, f64)], allowance: f64, cap: f64) -> BoundCurve {
        let allowance = allowance.clamp(0.0, cap);
        BoundCurve { allowance, ..BoundCurve::assemble(curve, 0.0, 0.0, cap - allowance) }
    }

    /// `curve`'s pieces raised by `once` on the first raw unit and by `per_swap` a raw unit on the
    /// first [`MAX_SWAPS_PER_POOL`] (a run of n swaps takes at least n raw units, module docs), flat
    /// from where they reach `cap`.
    fn assemble(curve: &[(f64, f64)], per_swap: f64, once: f64, cap: f64) -> BoundCurve {
        let swaps = f64::from(MAX_SWAPS_PER_POOL);
        let raise = |from: f64| {
            if from < 1.0 {
                per_swap + once
            } else if from < swaps {
                per_swap
            } else {
                0.0
            }
        };
        let (mut at, mut value, mut pieces) =
            (0.0_f64, 0.0_f64, Vec::with_capacity(curve.len().saturating_add(2)));
        'pieces: for &(width, rate) in curve {
            let end = at + width;
            while at < end {
                // Split at the edges where the raise changes.
                let edge = [1.0, swaps].into_iter().find(|&e| e > at).unwrap_or(f64::INFINITY);
                let (width, rate) = (end.min(edge) - at, rate + raise(at));
                if rate <= 0.0 || value >= cap {
                    break 'pieces;
                }
                if value + width * rate >= cap {
                    pieces.push(((cap - value) / rate, rate));
                    break 'pieces;
                }
                pieces.push((width, rate));
                (at, value) = (at + width, value + width * rate);
            }
        }
        BoundCurve { pieces, allowance: 0.0 }
    }

    /// The bound for `input` raw units in total (a swap of nothing pays nothing; any other is at
    /// least one raw unit, and is granted the allowance).
    pub fn value(&self, input: f64) -> f64 {
        if input <= 0.0 {
            return 0.0;
        }
        self.allowance + pieces_value(&self.pieces, input.max(1.0))
    }

    /// The pieces (width, rate), rates non-increasing.
    pub fn pieces(&self) -> Vec<(f64, f64)> {
        self.pieces.clone()
    }
}

#[cfg(test)]
#[path = "bound_curve_tests.rs"]
mod tests;
