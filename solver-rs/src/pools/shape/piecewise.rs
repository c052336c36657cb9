//! Linear pieces (width in raw input, rate raw out per raw in), rates non-increasing, flat past
//! the last: the sampled venues' fitted curve (`sampled/bound.rs`), WOOFi's one piece
//! (`woofi/bound.rs`) and the pieces a family proves beside its model (`bound_curve.rs`,
//! `maverick/bound.rs`).

use crate::route::convex::curve::{idle, Response, Shape};

/// Linear pieces: (width in raw input, rate raw out per raw in), rates non-increasing, above an
/// allowance.
pub struct Piecewise {
    pieces: Vec<(f64, f64)>,
    /// Raw units out granted at any input (a family's rounding slack, `pools/bound_curve.rs`): the
    /// curve's value at zero, as the constant product's offset (`hyperbola.rs`), so no trade is
    /// needed to collect it and no corner of the pieces stands for it.
    allowance: f64,
}

impl Piecewise {
    /// One piece: `rate` raw out per raw in up to `width` raw in, flat past it.
    pub fn linear(width: f64, rate: f64) -> Piecewise {
        Piecewise { pieces: vec![(width, rate)], allowance: 0.0 }
    }

    /// Pieces (width, rate), rates falling, that a family computes and proves beside its model
    /// (`pools/bound_curve.rs`).
    pub fn from_pieces(pieces: Vec<(f64, f64)>) -> Piecewise {
        Piecewise::with_allowance(pieces, 0.0)
    }

    /// [`Piecewise::from_pieces`] above `allowance` raw units out (`pools/bound_curve.rs`).
    pub fn with_allowance(pieces: Vec<(f64, f64)>, allowance: f64) -> Piecewise {
        Piecewise { pieces, allowance }
    }
}

impl Shape for Piecewise {
    fn value(&self, input: f64) -> f64 {
        self.allowance + pieces_value(&self.pieces, input)
    }

    fn first_rate(&self) -> f64 {
        self.pieces.first().map_or(0.0, |p| p.1)
    }

    /// Every piece whose rate beats `rate` is taken whole. The slope stands in for the corner: the
    /// next piece's width over how far the rate must fall to take it.
    fn respond(&self, rate: f64) -> Response {
        let (mut input, mut output) = (0.0, self.allowance);
        // The rate of the piece before (taken whole once `input` is positive).
        let mut last_rate = 0.0;
        for &(width, piece_rate) in &self.pieces {
            if piece_rate <= rate {
                if input == 0.0 {
                    return Response {
                        slope: width / piece_rate.max(f64::MIN_POSITIVE),
                        ..idle(self.allowance)
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
