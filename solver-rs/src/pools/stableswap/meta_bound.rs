//! A Curve meta pool and its base pool as one venue in the convex bound: one budget
//! (`route/convex/pooled.rs`) over the venue's coins (the meta pool's coin, then the base pool's),
//! which holds whatever run of swaps a plan makes through the venue (coin → base coin, base coin →
//! coin, base coin → base coin), since every one of them moves the same two pools.
//!
//! Why every state a plan can reach is in the budget, in 18-decimal units (xp = balance · rate /
//! 10¹⁸; c the meta pool's coin, L its base LP balance, S the base LP supply, b the base pool's
//! balances, vp = D_b(b)/S its virtual price; 0 marks the state now):
//! - **The meta pool.** Its own budget (`bound.rs`) over its coin and its LP balance rated at vp₀
//!   holds at the end: each meta swap keeps its D at the vp it read, vp never falls (below), and
//!   D grows with the LP balance's rate, so φ_c(c) + φ_ℓ(ℓ) ≥ −s_m with ℓ = L·vp at the last swap,
//!   φ(z) = (z − x₀) + κ·ln(z/x₀).
//! - **vp never falls.** An `exchange` keeps D at a fixed supply; a one-coin deposit mints
//!   S·(D₂ − D₀)/D₀ with D₂ the D after the fee, below the D the pool keeps; a one-coin withdrawal
//!   burns its share of D₀ and pays less than that share. Each loses at most a few units to its
//!   floors, allowed for in `VP_MARGIN`/`VP_UNITS`.
//! - **The LP's claim.** LP tokens move only between the meta pool and the base pool (minted into
//!   it or burnt out of it) and to the meta pool's admin, so the supply outside the meta pool is at
//!   least S₀ − L₀, and its claim at least (S₀ − L₀)·vp₀: ℓ ≤ D_b(b) − (S₀ − L₀)·vp₀ =
//!   ℓ₀ + (D_b(b) − D_b₀) + ε, ε = D_b₀ − S₀·vp₀ (vp₀'s floor, a few units).
//! - **Linear past the tangent.** φ_ℓ is concave, so φ_ℓ(ℓ) ≤ σ·(ℓ − ℓ₀) with σ = 1 + κ/ℓ₀. D_b
//!   is concave in b (homogeneous of degree 1, with convex upper level sets: StableSwap's
//!   D^(n+1)/Πx is jointly convex), so D_b(b) − D_b₀ ≤ Σ_k g_k·(b_k − b₀_k) with g = ∇D_b(b₀) =
//!   (Ann + P/x_k)/(Ann − 1 + (n + 1)·P/D), P = D^(n+1)/(nⁿ·Πx). Together:
//!   φ_c(c) + Σ_k σ·g_k·(b_k − b₀_k) ≥ −s_m − σ·ε: the meta coin keeps its curvature, the base
//!   coins are linear (`Coin::linear`) at their marginal value. A base coin's balance falls by at
//!   least what the trader receives (the admin's share leaves it too), so its `keep` is 1.
//!
//! What it leaves out, so where it is loose: the base pool's own curvature and fees (a base coin
//! trade is priced at the base pool's marginal rate, less no fee, up to its whole balance), the
//! meta pool's curvature on its LP side, and the meta fee on coin → base coin trades (paid in LP
//! tokens, which the bound values at the base pool's marginal rate). The meta coin's curvature and
//! its fee when it is received remain, so a trade whose size the meta pool limits is bounded
//! near what it pays; a base coin → base coin trade is bounded by the constant sum. The joint
//! term takes this budget at its first tangent only (`Budget::joint`).

use super::math::{self, mul, A_PRECISION, PRECISION};
use super::{MetaBase, StableSwapPool, Template};
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::pooled::{Budget, Coin};

/// vp's relative loss to the floors of 2 × 64 base pool operations, far above it.
const VP_MARGIN: f64 = 1e-10;
/// vp's absolute loss, in xp units.
const VP_UNITS: f64 = 1e6;
/// f64's error in σ and the gradient (about 10⁻¹⁵), far above it.
const FLOAT_ROOM: f64 = 1e-12;

impl StableSwapPool {
    /// The budget of the meta pool and its base pool as one venue (module docs).
    pub(super) fn meta_budget(&self, base: &MetaBase) -> Option<Budget> {
        let vp = base.virtual_price().ok()?;
        let own = StableSwapPool {
            rates: vec![*self.rates.first()?, vp],
            base: None,
            template: Template::Legacy,
            ..self.clone()
        };
        let inner = own.budget()?;
        let (coin, lp) = (*inner.coins.first()?, *inner.coins.get(1)?);
        let sigma = 1.0 + inner.kappa / lp.x;
        let xp = base.pool.xp().ok()?;
        let amp = math::amp_at(&base.pool.ramp, base.pool.timestamp).ok()?;
        let d_units = math::get_d(&xp, amp).ok()?;
        let d = f64::from(d_units);
        let nf = f64::from(u8::try_from(xp.len()).ok()?);
        let ann = f64::from(amp) * nf / f64::from(A_PRECISION);
        let x: Vec<f64> = xp.iter().map(|&v| f64::from(v)).collect();
        if x.iter().any(|&v| v.is_nan() || v <= 0.0 || v.is_infinite()) || !(d > 0.0 && ann >= 1.0)
        {
            return None;
        }
        // P = D^(n+1)/(nⁿ·Πx), as D·Π(D/(n·x)) so nothing overflows.
        let p = x.iter().fold(d, |acc, &v| acc * (d / (nf * v)));
        let denominator = ann - 1.0 + (nf + 1.0) * p / d;
        // ε = D_b₀ − S₀·vp₀, and the units by which get_D's D and the real D may differ.
        let claimed = math::div(mul(base.supply, vp).ok()?, PRECISION).ok()?;
        let epsilon = f64::from(d_units.saturating_sub(claimed)) + 4.0;
        let slack = inner.slack + sigma * (epsilon + VP_MARGIN * d + VP_UNITS);
        let swaps = f64::from(MAX_SWAPS_PER_POOL);
        let mut coins = vec![coin];
        for (&x, &rate) in x.iter().zip(&base.pool.rates) {
            let per_xp = sigma * (ann + p / x) / denominator * (1.0 + FLOAT_ROOM);
            let rate = f64::from(rate) / f64::from(PRECISION);
            coins.push(Coin {
                x: x * per_xp,
                scale: rate * per_xp,
                keep: 1.0 + 2.0 * FLOAT_ROOM,
                allowance: swaps * (1.5 / rate + 1.0),
                linear: true,
            });
        }
        let ok = sigma.is_finite() && slack.is_finite() && coins.iter().all(|c| c.scale > 0.0);
        ok.then_some(Budget { coins, kappa: inner.kappa, slack })
    }
}

#[cfg(test)]
#[path = "meta_bound_tests.rs"]
mod tests;
