//! A Curve meta venue's base pool invariant D as a variable of the two-budget term
//! (`pooled_second.rs`; the proof is `pools/stableswap/meta_bound.rs`'s). Every state a plan
//! reaches has, with D the base pool's invariant at the end,
//!
//! - the meta budget: φ_c(c) + φ_ℓ(z(D)) ≥ −s_m, z(D) = `per_d`·D + `offset` the most the meta
//!   pool's LP balance (at the rate it prices it) can be worth, φ_ℓ(z) = (z − ℓ₀) + κ_m·ln(z/ℓ₀);
//! - the base budget at level D: Σ_k β_k(b_k) − a·(D − D₁) − K·ln(D/D₁) ≥ −s_b;
//! - D ≥ `floor` (the LP outside the meta pool at a virtual price that never falls).
//!
//! D has no price, so in the Lagrangian at (λ_m, λ_b) it contributes
//! sup over D of G(D) = λ_m·φ_ℓ(z(D)) − λ_b·(a·(D − D₁) + K·ln(D/D₁)), finite only while
//! λ_m·per_d < λ_b·a. G′(D) = 0 is a quadratic in D (below), so the sup is G at the best of its
//! roots in the domain and at the domain's lower end. Neither budget is linearised: small trades
//! see both pools' curvature.

use super::{largest_withdrawal, ln_ratio};

/// The D term of a meta venue's two budgets (module docs); budget 0 is the meta pool's, 1 the base
/// pool's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// ℓ₀: the meta pool's LP balance now, at the rate it prices it (xp units).
    pub lp: f64,
    /// κ_m: the meta budget's curvature.
    pub lp_kappa: f64,
    /// z(D) = per_d·D + offset bounds the LP balance's worth at base invariant D.
    pub per_d: f64,
    pub offset: f64,
    /// The least D any plan reaches.
    pub floor: f64,
    /// The base budget's tangent point D₁, a = (Ann − 1)/Ann and K = κ_b·(n + 1).
    pub d1: f64,
    pub a: f64,
    pub log: f64,
}

/// The D that maximises G at some multipliers, and what the Lagrangian's derivatives take from it.
#[derive(Clone, Copy, Debug)]
pub struct LevelMove {
    pub d: f64,
    /// The D term of each budget at `d` (φ_ℓ(z(d)), −(a·(d − D₁) + K·ln(d/D₁))); the first is
    /// ∂Φ/∂λ₀'s share even at λ₀ = 0, where G leaves it out.
    pub terms: [f64; 2],
    /// Each term's derivative in D at `d`.
    pub slopes: [f64; 2],
    /// −G″(d) > 0 where the maximum is interior (0 at the domain's edge: d does not move).
    pub bend: f64,
}

impl Level {
    fn z(&self, d: f64) -> f64 {
        self.per_d * d + self.offset
    }

    /// The lower end of the domain: the floor, or just above where z(D) reaches 0.
    pub fn lowest(&self) -> f64 {
        let zero = -self.offset / self.per_d;
        if zero >= self.floor {
            zero * (1.0 + 1e-12) + f64::MIN_POSITIVE
        } else {
            self.floor
        }
    }

    /// φ_ℓ(z(d)) (−∞ where z ≤ 0).
    fn meta_term(&self, d: f64) -> f64 {
        let z = self.z(d);
        if z <= 0.0 {
            return f64::NEG_INFINITY;
        }
        (z - self.lp) + self.lp_kappa * ln_ratio(z, self.lp)
    }

    /// a·(d − D₁) + K·ln(d/D₁): what the base budget must cover at level d.
    fn base_need(&self, d: f64) -> f64 {
        self.a * (d - self.d1) + self.log * ln_ratio(d, self.d1)
    }

    fn at(&self, d: f64, l: [f64; 2], interior: bool) -> LevelMove {
        let z = self.z(d);
        let slopes = [self.per_d * (1.0 + self.lp_kappa / z), -(self.a + self.log / d)];
        let curvature =
            -l[0] * self.per_d * self.per_d * self.lp_kappa / (z * z) + l[1] * self.log / (d * d);
        let bend = if interior { (-curvature).max(0.0) } else { 0.0 };
        LevelMove { d, terms: [self.meta_term(d), -self.base_need(d)], slopes, bend }
    }

    /// The D maximising G at multipliers `l` (None: G is unbounded, λ_m·per_d > λ_b·a, or at
    /// equality a·κ_m/per_d ≥ K, where G′ stays positive for large D).
    pub fn respond(&self, l: [f64; 2]) -> Option<LevelMove> {
        let (rise, fall) = (l[0] * self.per_d, l[1] * self.a);
        if rise > fall || (rise == fall && l[0] * self.lp_kappa >= l[1] * self.log) {
            return None;
        }
        let low = self.lowest();
        if l[0] <= 0.0 {
            return Some(self.at(low, l, false));
        }
        // G′(D) = 0 ⇔ λ_m·per_d·(z + κ_m)·D = λ_b·(a·D + K)·z, z = per_d·D + offset:
        // α·D² + β·D + γ = 0.
        let (m, c, k) = (self.per_d, self.offset, self.lp_kappa);
        let alpha = m * (l[0] * m - l[1] * self.a);
        let beta = l[0] * m * (c + k) - l[1] * (self.a * c + self.log * m);
        let gamma = -l[1] * self.log * c;
        let disc = beta * beta - 4.0 * alpha * gamma;
        let mut best = self.at(low, l, false);
        let mut value = self.value(&best, l);
        if disc >= 0.0 {
            let q = -0.5 * (beta + beta.signum() * disc.sqrt());
            for root in [q / alpha, if q != 0.0 { gamma / q } else { f64::NAN }] {
                if root.is_finite() && root > low {
                    let candidate = self.at(root, l, true);
                    let v = self.value(&candidate, l);
                    if v > value {
                        (best, value) = (candidate, v);
                    }
                }
            }
        }
        Some(best)
    }

    /// G at a move.
    pub fn value(&self, m: &LevelMove, l: [f64; 2]) -> f64 {
        let meta = if l[0] > 0.0 { l[0] * m.terms[0] } else { 0.0 };
        meta + l[1] * m.terms[1]
    }

    /// A lower end on the least D the meta budget allows when it may fall by `spent` (its slack
    /// and what the meta coin brought): φ_ℓ(z(D)) ≥ −spent.
    fn least_level(&self, spent: f64) -> f64 {
        // φ_ℓ rises with z from −∞ at 0; its root of −spent lies in (0, z(D) where it is 0].
        let (mut lo, mut hi) = (0.0, self.lp.max(self.z(self.floor)));
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if !(mid > lo && mid < hi) {
                break;
            }
            if (mid - self.lp) + self.lp_kappa * ln_ratio(mid, self.lp) >= -spent {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        ((lo - self.offset) / self.per_d).max(self.lowest())
    }

    /// An upper end on the most D the base budget allows when it may fall by `gain`:
    /// a·(D − D₁) + K·ln(D/D₁) ≤ gain.
    fn most_level(&self, gain: f64) -> f64 {
        let (mut lo, mut hi) = (self.lowest(), self.d1.max(self.lowest()) * 2.0);
        while self.base_need(hi) <= gain && hi.is_finite() {
            hi *= 2.0;
        }
        if self.base_need(lo) > gain {
            return lo;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if !(mid > lo && mid < hi) {
                break;
            }
            if self.base_need(mid) <= gain {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    }

    /// One pair alone (coin t of budget `from` to coin u of budget `to`): what budget `to` may
    /// spend on u's withdrawal when t's deposit brings `gain` to budget `from`, with the slacks
    /// `slack` and D at its best for the trade.
    pub fn pair_room(&self, from: usize, to: usize, gain: f64, slack: [f64; 2]) -> f64 {
        match (from, to) {
            // The meta coin in: D may fall as far as the meta budget allows.
            (0, _) => slack[1] - self.base_need(self.least_level(slack[0] + gain)),
            // A base coin in for the meta coin: D may rise as far as the base budget allows.
            (_, 0) => {
                let d = self.most_level(slack[1] + gain);
                slack[0] + self.meta_term(d.max(self.lowest()))
            }
            // Base coin to base coin: D may fall as far as the meta budget's slack allows.
            _ => gain + slack[1] - self.base_need(self.least_level(slack[0])),
        }
    }
}

/// An upper end on the withdrawal w ≤ `x` of a coin of coefficients `mn` (m, n) whose cost
/// m·w + n·ln(x/(x − w)) is `room`.
pub fn withdrawal_for(mn: [f64; 2], room: f64, x: f64) -> f64 {
    if room.is_nan() || room <= 0.0 {
        return 0.0;
    }
    let cost = |w: f64| mn[0] * w + if mn[1] > 0.0 { mn[1] * ln_ratio(x, x - w) } else { 0.0 };
    largest_withdrawal(cost, room, x)
}

#[path = "pooled_meta_schur.rs"]
pub(super) mod schur;
