//! A venue known only through sampled (amountIn, amountOut) points, as a monotone concave
//! piecewise-linear curve through (0, 0) that never promises more than any sample or than the
//! straight line between two neighbouring samples.
//!
//! Cleanup, in order (samples arrive validated: amountIn > 0 and strictly ascending):
//! 1. Truncation: the curve ends at the last sample before the first output that is lower than an
//!    earlier one. A falling output means the venue caps or refuses that size (a per-direction
//!    limit, a stale quote returning 0), so sizes from there on are refused rather than allowed
//!    to drag the whole curve down.
//! 2. Concave fit, greedy from the left: breakpoints sit at the sample inputs; the first keeps its
//!    sample; each later one takes min(its sample, the previous breakpoint plus the previous
//!    segment's slope times the gap, floored). Slopes therefore never rise, every breakpoint is
//!    an integer, and concave samples come out untouched. A concave curve through (0, 0) has
//!    out(x)/x non-increasing, so no fit can honour a sample and exceed its ratio later; where
//!    samples are not concave there is no single largest concave fit, and this one favours small
//!    sizes, which set the venue's price at the margin.
//!
//! A sample paying 0 (dust the venue rounds away) is honoured like any other: every concave curve
//! through (0, 0) under it is 0 beyond it, so such a direction quotes nothing. Samplers should
//! start at sizes the venue fills.

use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

/// Breakpoints (amountIn, amountOut) in raw token units, starting at (0, 0), inputs strictly
/// ascending, slopes non-increasing and non-negative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConcaveCurve {
    points: Vec<(U256, U256)>,
}

/// The fitted breakpoint after `prev` and `last`, or `sample_out` when the slope cap is larger.
fn capped_out(prev: (U256, U256), last: (U256, U256), x: U256, sample_out: U256) -> U256 {
    // Inputs ascend strictly and fitted outputs never fall, so no difference here is negative.
    let extended = mul_div(
        last.1.saturating_sub(prev.1),
        x.saturating_sub(last.0),
        last.0.saturating_sub(prev.0),
    )
    .ok()
    .and_then(|rise| last.1.checked_add(rise));
    match extended {
        Some(cap) => cap.min(sample_out),
        // The cap does not fit 256 bits, so it cannot bind.
        None => sample_out,
    }
}

impl ConcaveCurve {
    /// Fits the curve to samples already checked to have amountIn > 0 and strictly ascending.
    pub fn from_samples(samples: &[(U256, U256)]) -> Self {
        let mut points = vec![(U256::ZERO, U256::ZERO)];
        let mut highest_sample_out = U256::ZERO;
        for &(x, y) in samples {
            if y < highest_sample_out {
                break;
            }
            highest_sample_out = y;
            let fitted = match points.len() {
                1 => y,
                // n ≥ 2 here: the curve starts with (0, 0).
                n => capped_out(points[n.saturating_sub(2)], points[n.saturating_sub(1)], x, y),
            };
            points.push((x, fitted));
        }
        ConcaveCurve { points }
    }

    /// The breakpoints, (0, 0) first.
    pub fn breakpoints(&self) -> &[(U256, U256)] {
        &self.points
    }

    /// The largest input the curve prices (the last kept sample's amountIn; 0 when empty).
    pub fn max_input(&self) -> U256 {
        self.points.last().map_or(U256::ZERO, |p| p.0)
    }

    /// Index k of the segment [x_k, x_{k+1}] holding `x` (the later one at a breakpoint), or
    /// `InsufficientLiquidity` past the last sample: the curve never extrapolates.
    fn segment(&self, x: U256) -> Result<usize, PoolError> {
        if x > self.max_input() || self.points.len() < 2 {
            return Err(PoolError::InsufficientLiquidity);
        }
        let after = self.points.partition_point(|p| p.0 <= x);
        // The first breakpoint's input is 0 ≤ x, so `after` ≥ 1; there are at least two points.
        Ok(after.saturating_sub(1).min(self.points.len().saturating_sub(2)))
    }

    fn value(&self, x: U256, round_up: bool) -> Result<U256, PoolError> {
        let k = self.segment(x)?;
        let ((x0, y0), (x1, y1)) = (self.points[k], self.points[k.saturating_add(1)]);
        let interpolate = if round_up { mul_div_rounding_up } else { mul_div };
        // x0 ≤ x ≤ x1 and y0 ≤ y1: the differences are exact. The interpolated rise is at most
        // y1 − y0, so the sum fits; checked all the same.
        let rise = interpolate(y1.saturating_sub(y0), x.saturating_sub(x0), x1.saturating_sub(x0))?;
        y0.checked_add(rise).ok_or(PoolError::Overflow)
    }

    /// The curve at `x`, interpolated linearly and rounded down.
    pub fn value_round_down(&self, x: U256) -> Result<U256, PoolError> {
        self.value(x, false)
    }

    /// The curve at `x`, interpolated linearly and rounded up (the near end of a moved trade).
    pub fn value_round_up(&self, x: U256) -> Result<U256, PoolError> {
        self.value(x, true)
    }

    /// Slope (raw out per raw in) of the segment starting at or containing `x`; 0 past the end.
    pub fn slope_after(&self, x: U256) -> f64 {
        if x >= self.max_input() {
            return 0.0;
        }
        match self.segment(x) {
            Ok(k) => {
                let ((x0, y0), (x1, y1)) = (self.points[k], self.points[k.saturating_add(1)]);
                f64::from(y1.saturating_sub(y0)) / f64::from(x1.saturating_sub(x0))
            }
            Err(_) => 0.0,
        }
    }
}
