//! A sampled venue's bound curve: the fitted concave curve C from the input already consumed,
//! margin included: (1 − margin)·(C(consumed + input) − C(consumed)) in real numbers.
//!
//! Why it bounds the exact swap: the model takes the far end rounded down and the near end rounded
//! up, then floors the margin off, so each swap pays at most the real difference; consecutive
//! swaps telescope to the difference over their total. Past the last sample the model refuses, so
//! the curve stays flat there.

use super::{SampledPool, BPS};
use crate::pools::shape::Piecewise;

/// Linear pieces from the consumed input on (rate margin included); None when the pair has no
/// curve left to trade on (or the venue no longer prices it, `sides.rs`).
pub fn pieces_of(pool: &SampledPool, token_in: usize, token_out: usize) -> Option<Piecewise> {
    let curve = pool.curve(token_in, token_out)?;
    let consumed = f64::from(pool.consumed_in(token_in, token_out));
    let keep = f64::from(BPS.saturating_sub(pool.margin_bps)) / f64::from(BPS);
    let points = curve.breakpoints();
    let mut pieces = Vec::with_capacity(points.len());
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (
            (f64::from(pair[0].0), f64::from(pair[0].1)),
            (f64::from(pair[1].0), f64::from(pair[1].1)),
        );
        if x1 <= consumed || x1 <= x0 {
            continue;
        }
        let rate = keep * (y1 - y0) / (x1 - x0);
        pieces.push((x1 - x0.max(consumed), rate));
    }
    (!pieces.is_empty()).then(|| Piecewise::from_pieces(pieces))
}
