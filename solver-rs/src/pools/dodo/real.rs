//! The PMM in real numbers (f64), for the bound curve only (`bound.rs`): the state one swap of a
//! given size leaves, the LP fee kept in the pool, and the marginal price there. The closed forms
//! are the published ones (`pmm.rs`) without their roundings: the integral above one, the
//! quadratic's root for a trade (in the form that does not cancel when the side is nearly
//! drained) and the implicit target (with √(1 + x) − 1 as x / (√(1 + x) + 1)).

use super::pmm::{reciprocal_floor, PmmState, RState, ONE};

/// A PMM state as reals: i, its reciprocal as the pool uses it (`reciprocalFloor`, which for a
/// large i is far from 1/i: the pool's quote side is priced and its base target derived with it)
/// and k as numbers (not 10^18-scaled), reserves and targets raw.
#[derive(Clone, Copy, Debug)]
pub struct RealPmm {
    i: f64,
    inverse: f64,
    k: f64,
    b: f64,
    q: f64,
    b0: f64,
    q0: f64,
    r: RState,
}

impl RealPmm {
    pub fn of(s: &PmmState) -> RealPmm {
        let one = f64::from(ONE);
        RealPmm {
            i: f64::from(s.i) / one,
            inverse: reciprocal_floor(s.i).map_or(0.0, |v| f64::from(v) / one),
            k: f64::from(s.k) / one,
            b: f64::from(s.b),
            q: f64::from(s.q),
            b0: f64::from(s.b0),
            q0: f64::from(s.q0),
            r: s.r,
        }
    }

    /// The same pool seen from the quote side: selling quote on `self` is selling base on this.
    pub fn mirrored(&self) -> RealPmm {
        let r = match self.r {
            RState::One => RState::One,
            RState::AboveOne => RState::BelowOne,
            RState::BelowOne => RState::AboveOne,
        };
        let (b, q, b0, q0) = (self.q, self.b, self.q0, self.b0);
        RealPmm { i: self.inverse, inverse: self.i, k: self.k, b, q, b0, q0, r }
    }

    /// The marginal price of base in quote, fees not taken; None for an empty side.
    pub fn base_price(&self) -> Option<f64> {
        let factor = |v0: f64, v: f64| (v > 0.0).then(|| 1.0 - self.k + self.k * (v0 / v).powi(2));
        Some(match self.r {
            RState::One => self.i,
            RState::AboveOne => self.i * factor(self.b0, self.b)?,
            RState::BelowOne => self.i / factor(self.q0, self.q)?,
        })
    }

    /// Selling base above one, what the swap that brings R back to one pays (the whole excess,
    /// Q − Q0) beyond the curve's integral over the stretch back (B0 − B at i): the pool derived
    /// B0 at its floored reciprocal, not at 1/i, so the two differ where i is large; 0 when it
    /// pays less or no crossing is ahead.
    pub fn crossing_lump(&self) -> f64 {
        if self.r != RState::AboveOne || self.b >= self.b0 || self.b <= 0.0 {
            return 0.0;
        }
        let back = self.b0 - self.b;
        let integral = self.i * back * (1.0 - self.k + self.k * self.b0 / self.b);
        (self.q - self.q0 - integral).max(0.0)
    }

    /// The state after selling `pay` base in one swap, `kept` of the gross output staying in the
    /// pool (the LP fee rate); None when the pool cannot pay it.
    pub fn after_selling_base(&self, pay: f64, kept: f64) -> Option<RealPmm> {
        let (i, k) = (self.i, self.k);
        let below = |b: f64, gross: f64, b0: f64| {
            let q = self.q - gross * (1.0 - kept);
            let q0 = target(q, (b - b0).max(0.0), i, k);
            (q > 0.0).then_some(RealPmm { b, q, b0, q0, r: RState::BelowOne, ..*self })
        };
        let b = self.b + pay;
        match self.r {
            RState::One => below(b, trade(self.q0, self.q0, pay, i, k), self.b0),
            RState::BelowOne => below(b, trade(self.q0, self.q, pay, i, k), self.b0),
            RState::AboveOne => {
                let back = self.b0 - self.b;
                let excess = self.q - self.q0;
                if pay < back {
                    let integral = i * pay * (1.0 - k + k * self.b0 * self.b0 / (b * self.b));
                    let q = self.q - integral.min(excess) * (1.0 - kept);
                    let b0 = target(b, (q - self.q0).max(0.0), self.inverse, k);
                    Some(RealPmm { b, q, b0, r: RState::AboveOne, ..*self })
                } else {
                    // Past the crossing the pool prices from the target it stored there, and a
                    // run's target has risen by the fees it kept on the way: at most their worth
                    // in base, kept/(1 − kept) of the excess at the inverse price (a target grows
                    // by at most that price a unit of quote kept). Until the reserve reaches that
                    // target the run may still be above one.
                    let most = self.b0 + kept / (1.0 - kept) * excess * self.inverse;
                    let gross = excess + trade(self.q0, self.q0, pay - back, i, k);
                    if b < most {
                        let q = self.q - gross * (1.0 - kept);
                        Some(RealPmm { b, q, b0: most, r: RState::AboveOne, ..*self })
                    } else {
                        below(b, gross, most)
                    }
                }
            }
        }
        .filter(|s| s.inverse > 0.0 && s.i > 0.0)
        .filter(|s| s.b.is_finite() && s.q.is_finite() && s.b0.is_finite() && s.q0.is_finite())
    }
}

/// What selling `delta` at price i takes out of a side at `v1` with target `v0`: v1 − v2, v2 the
/// positive root of (1 − k)·v2² − (part1 − part2)·v2 − k·v0² = 0.
fn trade(v0: f64, v1: f64, delta: f64, i: f64, k: f64) -> f64 {
    if k == 0.0 {
        return (i * delta).min(v1);
    }
    if k == 1.0 {
        let t = i * delta * v1 / (v0 * v0);
        return v1 * t / (1.0 + t);
    }
    let part2 = k * v0 * v0 / v1 + i * delta;
    let minus_b = (1.0 - k) * v1 - part2;
    let root = (minus_b * minus_b + 4.0 * (1.0 - k) * k * v0 * v0).sqrt();
    let v2 = if minus_b < 0.0 {
        2.0 * k * v0 * v0 / (root - minus_b)
    } else {
        (minus_b + root) / (2.0 * (1.0 - k))
    };
    (v1 - v2).max(0.0)
}

/// The target of a side at `v1` after `delta` of the other side moved at price i.
fn target(v1: f64, delta: f64, i: f64, k: f64) -> f64 {
    let x = 4.0 * k * i * delta / v1;
    v1 + 2.0 * i * delta / ((1.0 + x).sqrt() + 1.0)
}
