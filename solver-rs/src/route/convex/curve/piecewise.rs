//! Sampled venues: the fitted concave curve C from the input already consumed, margin included:
//! (1 − margin)·(C(consumed + input) − C(consumed)) in real numbers.
//!
//! Why it bounds the exact swap: the model takes the far end rounded down and the near end rounded
//! up, then floors the margin off, so each swap pays at most the real difference; consecutive
//! swaps telescope to the difference over their total. Past the last sample the model refuses, so
//! the curve stays flat there.

use super::{idle, Response};
use crate::pools::sampled::{SampledPool, BPS};

/// Linear pieces from the consumed input on: (width in raw input, rate raw out per raw in, margin
/// included), rates non-increasing.
pub struct Piecewise {
    pieces: Vec<(f64, f64)>,
}

impl Piecewise {
    /// None when the direction has no curve left to trade on.
    pub fn of(pool: &SampledPool, token_in: usize) -> Option<Piecewise> {
        let curve = pool.curve(token_in)?;
        let consumed = f64::from(pool.consumed_in(token_in));
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
        (!pieces.is_empty()).then_some(Piecewise { pieces })
    }

    /// One piece: `rate` raw out per raw in up to `width` raw in, flat past it.
    pub fn linear(width: f64, rate: f64) -> Piecewise {
        Piecewise { pieces: vec![(width, rate)] }
    }

    /// Pieces (width, rate), rates falling, that a family computes and proves beside its model
    /// (`pools/bound_curve.rs`).
    pub fn from_pieces(pieces: Vec<(f64, f64)>) -> Piecewise {
        Piecewise { pieces }
    }

    pub fn value(&self, input: f64) -> f64 {
        pieces_value(&self.pieces, input)
    }

    pub fn first_rate(&self) -> f64 {
        self.pieces.first().map_or(0.0, |p| p.1)
    }

    /// Every piece whose rate beats `rate` is taken whole. The slope stands in for the corner: the
    /// next piece's width over how far the rate must fall to take it.
    pub fn respond(&self, rate: f64) -> Response {
        let (mut input, mut output) = (0.0, 0.0);
        // The rate of the piece before (taken whole once `input` is positive).
        let mut last_rate = 0.0;
        for &(width, piece_rate) in &self.pieces {
            if piece_rate <= rate {
                if input == 0.0 {
                    return Response {
                        slope: width / piece_rate.max(f64::MIN_POSITIVE),
                        ..idle(0.0)
                    };
                }
                let gap = last_rate - piece_rate;
                let slope = if gap > 0.0 { width / gap } else { 0.0 };
                return Response { input, output, slope };
            }
            input += width;
            output += width * piece_rate;
            last_rate = piece_rate;
        }
        Response { input, output, slope: 0.0 }
    }
}

/// What pieces (width, rate) pay for `input` (negative: 0): each piece taken in order, flat past
/// them. The one sum of a piecewise-linear bound (the families' curves, Maverick's walk).
pub fn pieces_value(pieces: &[(f64, f64)], input: f64) -> f64 {
    let (mut left, mut out) = (input.max(0.0), 0.0);
    for &(width, rate) in pieces {
        let taken = left.min(width);
        out += taken * rate;
        left -= taken;
        if left <= 0.0 {
            break;
        }
    }
    out
}
