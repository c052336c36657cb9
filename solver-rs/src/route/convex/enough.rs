//! When the dual's solve may stop before it converges: once g is within the optimizer's own
//! closeness ([`CLOSE_ENOUGH`], 0.05 bps) of what a plan already pays.
//!
//! Any prices certify a bound (weak duality, `certificate.rs`), so stopping early never makes the
//! bound wrong, only looser, and a plan paying `paid` (raw tokenOut, gas ignored: a candidate
//! path's whole-amount quote) shows the optimum is at least that. Once g ≤ `paid` / (1 − 0.05 bps)
//! the bound leaves a plan at most 0.05 bps to gain, and the optimizer, which stops within
//! [`CLOSE_ENOUGH`] of the bound, counts that plan as reached: iterating on would have moved the
//! bound by less than the optimizer looks at. The embedded market's 1 WETH → USDC 3-hop quote has
//! one route 0.03 bps below its bound; the solve stopped by conservation alone ran the per-side
//! solve to its 80 Newton iterations, Newton on the joint graph and then the warm start again
//! (the two-phase fallback), about 95 ms of CPU (docs/solver-optimizer.md, *Where a split quote's
//! time goes*).

use crate::math::U256;
use crate::route::split::CLOSE_ENOUGH;

/// Relative room for g's float error and the certificate's rounding up (`certificate.rs`: 10⁻¹²
/// of the terms' magnitudes, and a raw unit): far above either, far below [`CLOSE_ENOUGH`].
const ROOM: f64 = 1e-9;

/// What a plan pays (raw units of tokenOut, gas ignored), below which the bound cannot be; or
/// none known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floor(Option<f64>);

impl Floor {
    /// No plan known: the solve runs until it converges, its limits or the deadline.
    pub const NONE: Floor = Floor(None);

    /// A plan known to pay `paid` (raw tokenOut); none when it pays nothing.
    pub fn of(paid: U256) -> Floor {
        Floor(Some(f64::from(paid)).filter(|p| *p > 0.0))
    }

    /// Whether g (raw tokenOut) leaves the plan less than [`CLOSE_ENOUGH`] of it to gain, its
    /// float error and the certificate's rounding up included.
    pub fn reached(self, g: f64) -> bool {
        self.within(g, CLOSE_ENOUGH)
    }

    /// Whether g (raw tokenOut) leaves the plan less than `share` of it to gain, with the same
    /// room as [`Floor::reached`].
    pub fn within(self, g: f64, share: f64) -> bool {
        self.0.is_some_and(|paid| (g * (1.0 + ROOM) + 2.0) * (1.0 - share) <= paid)
    }
}

#[cfg(test)]
#[path = "enough_tests.rs"]
mod tests;
