//! StableSwap's term in the convex bound: the pool relaxed to a separable budget
//! (`route/convex/pooled.rs`), so that one term bounds every plan's swaps on every pair of its
//! coins at once.
//!
//! Why every state a plan can reach is in the budget (docs/solver-optimizer.md, *Venues of more
//! than two tokens*), in the pool's 18-decimal units xp = balance · rate / 10¹⁸:
//! - **D does not fall.** `exchange` solves the invariant at the current D for the output coin's
//!   new balance y and keeps y + 1 plus the fee the LPs keep, so each swap leaves the real-valued
//!   invariant D(xp) at least at the D it priced with, less `get_D`'s and `get_y`'s convergence
//!   (a few units). 64 swaps lose far less than the margin D·10⁻¹¹ + 10⁴ taken here.
//! - **The invariant as a region.** F(x, D) = Ann·Σx + D − Ann·D − D^(n+1)/(nⁿ·Πx) falls with D
//!   (Ann = A·nⁿ ≥ 4), so D(x) ≥ D₁ implies F(x, D₁) ≥ 0, that is Σx − K/Πx ≥ c with
//!   K = D₁^(n+1)/(nⁿ·Ann) and c = D₁·(Ann − 1)/Ann.
//! - **Separable.** 1/Πx = exp(−Σ ln x) ≥ (1/Πx₀)·(1 − Σ ln(x_t/x₀_t)) (exp lies above its
//!   tangent), so with κ = K/Πx₀ the region lies inside Σ_t [(x_t − x₀_t) + κ·ln(x_t/x₀_t)] ≥ −s,
//!   s = Σx₀ − κ − c = F(x₀, D₁)/Ann ≥ 0. It touches the pool's own surface at x₀ with the same
//!   slopes, so the bound's marginal rates are the pool's.
//! - **The fee.** The trader gets (dy − fee) and the admin's half of the fee leaves the pool too,
//!   so a unit the trader receives takes at least 1 + f/2 units out of the pool (f the base fee;
//!   NG's off-peg fee is never below it): `keep` = 1/(1 + f/2). The LPs' half stays in the pool and
//!   raises D, which the budget does not count: the bound is loose by up to f/2 on what the pool
//!   pays. Each swap's floors give the trader at most 1.5 + rate/10¹⁸ xp units more, allowed for
//!   64 swaps (`MAX_SWAPS_PER_POOL`) in `allowance`.

use super::math::{self, FEE_DENOMINATOR, PRECISION};
use super::StableSwapPool;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::pooled::{Budget, Coin};

/// The relative margin on D (far above 64 swaps' rounding and f64's error in κ, c and s).
pub(super) const D_MARGIN: f64 = 1e-11;
/// The absolute margin on D, in xp units.
pub(super) const D_UNITS: f64 = 1e4;

impl StableSwapPool {
    /// The pool's budget; None when a balance is empty or the invariant cannot be computed.
    pub fn budget(&self) -> Option<Budget> {
        if let Some(base) = &self.base {
            return self.meta_budget(base);
        }
        let xp = self.xp().ok()?;
        let amp = math::amp_at(&self.ramp, self.timestamp).ok()?;
        let inv = self.template.invariant();
        let d0 = f64::from(math::get_d(&xp, amp, inv).ok()?);
        let n = xp.len();
        let nf = f64::from(u8::try_from(n).ok()?);
        let x: Vec<f64> = xp.iter().map(|&v| f64::from(v)).collect();
        if x.iter().any(|&v| v.is_nan() || v <= 0.0 || v.is_infinite()) || d0.is_nan() || d0 <= 0.0
        {
            return None;
        }
        let ann = f64::from(amp) * nf / f64::from(inv.a_precision);
        if ann.is_nan() || ann < 1.0 {
            return None;
        }
        let d1 = d0 * (1.0 - D_MARGIN) - D_UNITS;
        // κ = D₁^(n+1)/(nⁿ·Ann·Πx₀), as D₁·Π(D₁/(n·x₀_t))/Ann so nothing overflows.
        let kappa = x.iter().fold(d1, |acc, &v| acc * (d1 / (nf * v))) / ann;
        let c = d1 * (ann - 1.0) / ann;
        let slack = (x.iter().sum::<f64>() - kappa - c).max(0.0);
        if !(kappa > 0.0 && kappa.is_finite() && d1 > 0.0) {
            return None;
        }
        // The base fee less a unit: NG's dynamic fee floors, and is never below it otherwise.
        let fee = f64::from(self.fee.saturating_sub(crate::math::U256::from(1)))
            / f64::from(FEE_DENOMINATOR);
        let keep = 1.0 / (1.0 + 0.5 * fee.clamp(0.0, 1.0));
        let swaps = f64::from(MAX_SWAPS_PER_POOL);
        let coins = x
            .iter()
            .zip(&self.rates)
            .map(|(&x, &rate)| {
                let scale = f64::from(rate) / f64::from(PRECISION);
                Coin { x, scale, keep, allowance: swaps * (1.5 / scale + 1.0), linear: false }
            })
            .collect();
        Some(Budget { coins, kappa, slack, second: None })
    }
}
