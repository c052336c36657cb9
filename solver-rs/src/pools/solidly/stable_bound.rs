//! Solidly stable pools: the level curve of G(x, y) = x³y + xy³ in whole tokens (reserves divided
//! by 10^decimals), x on the input side.
//!
//! Why it bounds the exact swap (docs/solver-optimizer.md, *Why skipping by the bound is exact*,
//! gives the rounding argument): every swap passes the pool's own `_k(balances) ≥ _k(reserves)`
//! check, `_k` is never above G of the same balances, and for the starting reserves it is at most
//! D = (X+Y)³ + (X+Y)² + 1 units of 10⁻¹⁸ below it. So after any sequence of swaps
//! G(x + Δx, y − Δy) ≥ G(x, y) − D, and as ∂G/∂y ≥ x³ the total output is at most the level
//! curve's Δy plus D/x³ of those units, once. The net input of each swap is below
//! (1 − f)·input + 1 raw unit (the fee is floored), allowed for [`MAX_SWAPS_PER_POOL`] times.

use super::{SolidlyPool, TokenScales, BPS};
use crate::route::convex::curve::{idle, Response, Shape, MAX_SWAPS_PER_POOL};

/// Newton rounds for the level curve and the rate equation (each converges in a handful).
const ROUNDS: usize = 100;

pub struct Stable {
    /// Reserves in whole tokens, on the input and output sides.
    x: f64,
    y: f64,
    scale_in: f64,
    scale_out: f64,
    keep: f64,
    /// Raw net input the pool may book beyond keep·input.
    offset: f64,
    /// Output the pool's roundings can give away, whole tokens.
    slack: f64,
}

/// −dy/dx on the level curve where y = t·x: (3t + t³)/(1 + 3t²), rising with t.
fn slope_at(t: f64) -> f64 {
    (3.0 * t + t * t * t) / (1.0 + 3.0 * t * t)
}

impl Stable {
    /// None when a reserve is empty.
    pub fn of(pool: &SolidlyPool, scales: TokenScales, zero_for_one: bool) -> Option<Stable> {
        let (r_in, r_out, s_in, s_out) = match zero_for_one {
            true => (pool.reserve0, pool.reserve1, scales.scale0, scales.scale1),
            false => (pool.reserve1, pool.reserve0, scales.scale1, scales.scale0),
        };
        let (scale_in, scale_out) = (f64::from(s_in), f64::from(s_out));
        let (x, y) = (f64::from(r_in) / scale_in, f64::from(r_out) / scale_out);
        let keep = f64::from(BPS.saturating_sub(pool.fee_bps)) / f64::from(BPS);
        if !(x > 0.0 && y > 0.0 && x.is_finite() && y.is_finite() && keep > 0.0) {
            return None;
        }
        let sum = x + y;
        let slack = (sum * sum * sum + sum * sum + 1.0) / (x * x * x) / 1e18;
        Some(Stable {
            x,
            y,
            scale_in,
            scale_out,
            keep,
            offset: f64::from(MAX_SWAPS_PER_POOL),
            slack,
        })
    }

    /// Δy on the level curve through (x, y) for Δx more of the input token (whole tokens), from
    /// Δy·(x³ + x(v² + vy + y²)) = Δx·v·(u² + ux + x² + v²) with u = x + Δx, v = y − Δy: the
    /// difference G(u, v) − G(x, y) factored so that small trades lose no digits to cancellation.
    fn level_out(&self, dx: f64) -> f64 {
        let (x, y) = (self.x, self.y);
        if dx <= 0.0 {
            return 0.0;
        }
        let u = x + dx;
        let w = u * u + u * x + x * x;
        let phi = |d: f64| {
            let v = y - d;
            d * (x * x * x + x * (v * v + v * y + y * y)) - dx * v * (w + v * v)
        };
        let dphi = |d: f64| {
            let v = y - d;
            x * x * x + x * (v * v + v * y + y * y) - d * x * (2.0 * v + y) + dx * (w + 3.0 * v * v)
        };
        // The root lies below the spot rate's estimate (the curve is concave) and below y.
        let (mut lo, mut hi) = (0.0, y.min(dx * slope_at(y / x)));
        if phi(hi) <= 0.0 {
            return hi;
        }
        let mut d = hi;
        for _ in 0..ROUNDS {
            let newton = d - phi(d) / dphi(d);
            let next = if newton > lo && newton < hi { newton } else { 0.5 * (lo + hi) };
            if phi(next) > 0.0 {
                hi = next;
            } else {
                lo = next;
            }
            if (next - d).abs() <= 1e-15 * next.abs() || hi - lo <= 1e-15 * hi {
                // Converged: the root to 10⁻¹⁵ (the certificate's float room covers it).
                return next.max(lo);
            }
            d = next;
        }
        hi
    }

    /// Whole tokens of net input for `input` raw units.
    fn net_tokens(&self, input: f64) -> f64 {
        (self.keep * input.max(0.0) + self.offset) / self.scale_in
    }
}

impl Shape for Stable {
    fn value(&self, input: f64) -> f64 {
        (self.level_out(self.net_tokens(input)) + self.slack).min(self.y) * self.scale_out
    }

    /// Raw out per raw in at zero input.
    fn first_rate(&self) -> f64 {
        let u = self.x + self.offset / self.scale_in;
        let v = self.y - self.level_out(self.offset / self.scale_in);
        self.keep * slope_at(v / u) * self.scale_out / self.scale_in
    }

    /// The trade stops where the level curve's slope s(t) (t = y/x there) meets the rate in
    /// tokens: t* solves t³ − 3ρt² + 3t − ρ = 0, and the curve point is u = (G / (t + t³))^¼.
    fn respond(&self, rate: f64) -> Response {
        if rate >= self.first_rate() {
            return idle(self.value(0.0));
        }
        let rho = rate * self.scale_in / (self.keep * self.scale_out);
        let t0 = self.y / self.x;
        let cubic = |t: f64| t * t * t - 3.0 * rho * t * t + 3.0 * t - rho;
        // s rises with t, so the cubic (which is (1 + 3t²)(s(t) − ρ)) rises too on [0, t0].
        let (mut lo, mut hi) = (0.0, t0);
        let mut t = 0.5 * t0;
        for _ in 0..ROUNDS {
            let derivative = 3.0 * t * t - 6.0 * rho * t + 3.0;
            let newton = t - cubic(t) / derivative;
            let by_newton = newton > lo && newton < hi;
            let next = if by_newton { newton } else { 0.5 * (lo + hi) };
            if cubic(next) > 0.0 {
                hi = next;
            } else {
                lo = next;
            }
            // Converged when Newton stops moving, or the bracket closes: a bisection that lands
            // where the search started (the first midpoint is the starting guess) is no root.
            if (by_newton && (next - t).abs() <= 1e-15 * next) || hi - lo <= 1e-15 * hi {
                t = next;
                break;
            }
            t = next;
        }
        let level = self.x * self.y * (self.x * self.x + self.y * self.y);
        let u = (level / (t + t * t * t)).sqrt().sqrt();
        let input = ((u - self.x) * self.scale_in - self.offset) / self.keep;
        if input <= 0.0 {
            return idle(self.value(0.0));
        }
        let s_prime = (3.0 * (1.0 - t * t) * (1.0 - t * t)
            / ((1.0 + 3.0 * t * t) * (1.0 + 3.0 * t * t)))
            .max(1e-9);
        let du_dt = 0.25 * u * (1.0 + 3.0 * t * t) / (t + t * t * t);
        let slope = (self.scale_in / self.keep) * du_dt / s_prime * self.scale_in
            / (self.keep * self.scale_out);
        Response { input, output: self.value(input), slope }
    }
}
