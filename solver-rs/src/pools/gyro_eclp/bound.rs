//! The E-CLP's bound curve for the convex search, and its spot rate for ranking.
//!
//! Why the bound holds. Write f(t) for what one swap of t raw units pays on the real curve: the
//! true invariant of the balances as the pool upscales them (floored), the fee φ taken as a real
//! number, no rounding.
//! 1. A run of swaps of t₁ + … + tₙ = T pays at most f(T) plus a slack per swap after the first,
//!    and no swap pays more than `highest` (β selling token 0, 1/α selling token 1, after the fee
//!    and scalings) per raw unit in. Write V for the balances as the pool sees them (each raw
//!    balance upscaled and floored) and R for the same unfloored, so V ≤ R < V + 1 in each token.
//!    A swap from V of net upscaled input dx pays out_up ≤ the real curve's swap from V (every
//!    rounding favours the pool, point 3), at prices ≤ `highest` (hence the second claim), and
//!    leaves R' = R + (t·F_in, −o·F_out) ≥ (V.x + dx, V.y − out_up) componentwise: the input's
//!    upscaling floors, the output's downscaling floors (o·F_out ≤ out_up). That point is on or
//!    above the real level curve through V. So a swap loses at most the gap between V and R to
//!    the run: one upscaled unit of each token, worth at most `highest` + 1 upscaled units out,
//!    (`highest` + 1)/F_out raw, and none on the first swap (f starts at V). A swap from a point
//!    on or above a level curve ends on or above it, so by induction the run ends on or above
//!    the curve through V lowered by those losses, at x at most x₀ + (1 − φ)·T. The level curves
//!    are homothetic (the curve of invariant r is r times the curve of 1, offsets included), so
//!    the gap a loss opens, δr·(y + x·p)/r, only shrinks further along (y + x·p is the tangent's
//!    intercept, falling as x grows on a convex curve): the run pays at most f(T) plus
//!    (`highest` + 1)/F_out raw a swap. [`SLACK_UNITS`] more raw units a swap are a cushion.
//!    The slack (64 swaps' worth) is the curve's allowance, granted at any input above zero
//!    (`pools/bound_curve.rs`): the pieces start at the price now (below). Not a first raw unit
//!    that pays the whole slack (129 raw out per raw in on an 18-decimal pair near par: the dual
//!    priced a middle token 100 times its worth), nor the tangents raised by it with `highest`
//!    below them for the first few thousand raw units (the dual stopped on that corner, the bound
//!    up to 1,500 bps above the plan on the embedded market's 3-hop trades).
//! 2. f is concave (the curve is convex), so a line above f at t with a slope above f′(t), and
//!    raised by (slope − s)·t where s is below f′(t), is above all of f: [`BoundCurve::tangents`]
//!    takes the least of such lines and of the first line (the price never above β selling
//!    token 0, 1/α selling token 1).
//! 3. The values and slopes come from the exact model, g(t) (one exact swap): g ≤ f, since every
//!    rounding favours the pool, and f − g is at most the invariant's error carried to the
//!    output plus the swap's own roundings. The invariant the swap uses is at most 2·err above
//!    the true one, and by homogeneity ∂y/∂r = (y + x·p)/r at a fixed x (p the price there, at
//!    most the highest price): the output falls by at most 2·err·(y₀ + x·p_max)/r. The swap's own
//!    roundings, in 18 and 38 decimals and divided by terms as small as 1/λ², are allowed
//!    [`ROUNDING`] of the same size plus [`ROUNDING_UNITS`]·(1 + λ²) units (the quadratic divides
//!    by c² + s²/λ², at least 1/λ²; at λ = 10,000 and s near 1 the exact output's noise was
//!    measured near 10^10 upscaled units, a tenth of the allowance); the input's (the fee
//!    rounded up, the upscaling floored) at most one raw unit in, the output's one raw unit out.
//!    The swap's own roundings' allowance is not derived operation by operation: it is checked
//!    by `gyro_eclp_tests.rs` against the exact model over random pools up to λ = 10,000.
//!    A slope is bounded by chords: f′(t) ≤ (f(t) − f(t − h))/h and f′(t) ≥ (f(t + h) − f(t))/h.
//!
//! 4. The price now is at most the chord of a small swap the other way (the curve is convex, and
//!    the exact swap gives out no more than the real one), so f(t) ≤ that price·(1 − φ)·t: a line
//!    from the origin (under the allowance like the tangents) that is tight below the first
//!    tangent, where the tangents' chords are too short for their roundings.
//!
//! The tangents are placed from a millionth of the input balance (at least [`FIRST`]) on, spaced so that two
//! neighbours' corner is about [`TOLERANCE`] above the curve (from the slopes' fall so far),
//! until a swap would leave the range or the output reaches the balance.

use super::{e18, eclp_math, GyroEclpPool};
use crate::math::U256;
use crate::pools::bound_curve::{BoundCurve, Tangent};
use crate::pools::{two_token_direction, PoolModel};

/// Relative margin for the f64 arithmetic of rates and allowances.
const MARGIN: f64 = 1e-9;
/// Raw units a swap may pay beyond the real curve, beyond the floors' derived (`highest` + 1)/F_out.
const SLACK_UNITS: f64 = 2.0;
/// The swap's own roundings, relative to y₀ + x·p_max (upscaled).
const ROUNDING: f64 = 1e-12;
/// The swap's own roundings in upscaled units, times 1 + λ².
const ROUNDING_UNITS: f64 = 1000.0;
/// The aimed gap at a corner between neighbouring tangents, relative to the output there.
const TOLERANCE: f64 = 2e-6;
/// At most this many tangents from the first point up (each three exact swaps).
const MAX_TANGENTS: usize = 80;
/// The least input a tangent is taken at, raw units.
const SMALLEST: f64 = 1e4;
/// Chords of this share of t bound the slope at t, and at least [`WIDE_CHORD`] raw units (or a
/// hundredth of t).
const CHORD: f64 = 1e-4;
const WIDE_CHORD: f64 = 1e6;
/// The first tangent's input, raw units, at least (below it, the first tangent runs on).
const FIRST: f64 = 1e8;

impl GyroEclpPool {
    /// The bound on what any run of swaps `token_in` → `token_out` pays in total, built once per
    /// state and direction (`pools/curve_memo.rs`).
    pub fn bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        two_token_direction(token_in, token_out).ok()?;
        let build = || self.build_bound_curve(token_in, token_out);
        self.curves.get_or_build(token_in, build).cloned()
    }

    /// The curve itself: about 80 tangents of three exact swaps each.
    fn build_bound_curve(&self, token_in: usize, token_out: usize) -> Option<BoundCurve> {
        let in_is_0 = two_token_direction(token_in, token_out).ok()?;
        let one = f64::from(e18());
        let highest = if in_is_0 {
            f64::from(self.params.beta.magnitude()) / one
        } else {
            one / f64::from(self.params.alpha.magnitude())
        };
        let keep = 1.0 - f64::from(self.swap_fee) / one;
        let (scale_in, scale_out) = (
            f64::from(self.scaling_factors[token_in]) / one,
            f64::from(self.scaling_factors[token_out]) / one,
        );
        let rate = highest * keep * scale_in / scale_out * (1.0 + MARGIN);
        let cap = f64::from(self.balances[token_out]);
        // Each swap after the first starts from balances the upscaling floored, at most one
        // upscaled unit of each token below the real ones: worth at most `highest` + 1 upscaled
        // units out (point 1).
        let slack = ((highest + 1.0) / scale_out + SLACK_UNITS) * (1.0 + MARGIN);
        let Ok(at) = self.prepared() else { return BoundCurve::line(rate, slack, cap) };
        let (x0, y0) = (f64::from(at.up[token_in]), f64::from(at.up[token_out]));
        let (r, err) = (f64::from(at.invariant.magnitude()), f64::from(at.err.magnitude()));
        let lambda = f64::from(self.params.lambda.magnitude()) / one;
        // How far f may be above g for an input of t raw units, raw out (point 3).
        let fall = |t: f64| {
            let reach = y0 + (x0 + t * scale_in) * highest;
            let upscaled =
                2.0 * err * reach / r + ROUNDING * reach + ROUNDING_UNITS * (1.0 + lambda * lambda);
            // The input's roundings (the fee rounded up, the upscaling floored) take at most one
            // raw unit of input, worth at most `rate`; the downscaling floors one raw unit out.
            (upscaled / scale_out + rate + 1.0) * (1.0 + MARGIN)
        };
        // t is a whole number of raw units (an f64 holds it exactly, and U256 takes it so).
        let g = |t: f64| {
            let amount = U256::try_from(t.max(1.0)).ok()?;
            self.paid(&at, token_in, amount).ok().map(f64::from)
        };
        // The line at t (a whole number of raw units) and the swap's output there (point 2).
        let tangent = |t: f64| {
            // Wide enough that the roundings (a unit of input or more) barely tilt the chord.
            let h = (t * CHORD).max((t * 1e-2).min(WIDE_CHORD)).floor().max(1.0);
            let (before, here, after) = (g(t - h)?, g(t)?, g(t + h)?);
            let value = here + fall(t);
            let above = ((value - before) / h).min(rate);
            let below = ((after - value) / h).max(0.0);
            let slope = above.max(below);
            Some((Tangent { at: t, value: value + (slope - below) * t, slope }, here))
        };
        // The price now is at most the chord of a small swap the other way (the curve is convex,
        // and the exact swap pays no more than the real one): the line from the origin at it.
        let spot = U256::try_from((y0 * 1e-6).floor().max(1.0)).ok().and_then(|back| {
            let (p, d) = (&self.params, &self.derived);
            let given = eclp_math::out_given_in(at.up, back, !in_is_0, p, d, &at.r).ok()?;
            let given = f64::from(given);
            (given > 0.0).then(|| Tangent {
                at: 0.0,
                value: 0.0,
                slope: f64::from(back) / given * keep * scale_in / scale_out * (1.0 + MARGIN),
            })
        });
        // The first point: a millionth of the balance, less while the pool cannot take it.
        let mut t = (f64::from(self.balances[token_in]) * 1e-6).max(FIRST).floor();
        while tangent(t).is_none() && t > SMALLEST {
            t = (t / 16.0).floor();
        }
        // Below it, a few points for a curve that bends early (near an end of its range).
        let mut lines: Vec<Tangent> = std::iter::successors(Some(t / 8.0), |t| Some(t / 8.0))
            .take_while(|t| *t >= SMALLEST)
            .take(8)
            .filter_map(|t| tangent(t.floor()).map(|(line, _)| line))
            .chain(spot)
            .collect();
        // Above it, spaced by the slopes' fall so far; where a swap is refused, halfway back.
        let mut last: Option<(f64, f64)> = None;
        for _ in 0..MAX_TANGENTS {
            t = t.floor();
            let Some((line, here)) = tangent(t) else {
                match last {
                    Some((t0, _)) if t - t0 > t0 * 1e-3 => {
                        t = (t0 + t) / 2.0;
                        continue;
                    }
                    _ => break,
                }
            };
            lines.push(line);
            if line.value >= cap {
                break;
            }
            // The next point: a corner gap of about the slope's fall · step / 8.
            let curvature = last.map_or(0.0, |(t0, s0)| ((s0 - line.slope) / (t - t0)).max(0.0));
            let step = if curvature > 0.0 {
                (8.0 * TOLERANCE * here.max(1.0) / curvature).sqrt()
            } else {
                t
            };
            last = Some((t, line.slope));
            t += step.clamp(t * 0.01, t);
        }
        BoundCurve::tangents(rate, &lines, slack, cap)
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
