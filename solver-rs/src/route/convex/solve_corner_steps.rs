//! Where a Newton step of the dual's solve (`solve.rs`) reaches a linear budget's corner: the step
//! lengths the line search tries besides its halvings where those crawl (`CRAWL`). A linear budget's term (WOOFi's vault,
//! `pooled_linear.rs`) has no curvature, so its copies' prices are flat in Newton's model: their
//! step is the gradient over the floor, clipped to `MAX_MOVE`, and along it g falls linearly up to
//! the pair's corner and rises past it. Halvings land on lengths 2⁻ᵏ, short of the corner or past
//! it, never on it, so the join (`corners.rs`, `Corners::join`) that would move the pair's copies
//! as one never sees the corner, and each step gained a fraction of g: wstETH→cbETH 3-hop $100 on
//! the vault's joint budget (today's fixture) ran Newton's 80 iterations at lengths 2⁻¹¹ to 2⁻¹⁵,
//! from 1,825 to 61 times the plan (docs/dex-kinds.md, WOOFI).

use crate::route::convex::dual::{Evaluation, Piece};
use crate::route::convex::graph::Head;

/// The most corners the line search tries past its halvings (each an evaluation of g).
pub(super) const MAX_CORNERS: usize = 4;

/// The lengths t in (0, 1) at which `step` (one entry per free group, `free` their indices in
/// `groups`; a group's prices move to p·(1 + t·s)) brings a linear budget's pair booked at `at`
/// (evaluated at `prices`) to its corner rate (the tender's price over the head's), the shortest
/// [`MAX_CORNERS`], ascending. Empty where `at` booked no linear pair.
pub(super) fn corner_lengths(
    at: &Evaluation,
    prices: &[f64],
    groups: &[(Vec<usize>, bool)],
    free: &[usize],
    step: &[f64],
) -> Vec<f64> {
    if !at.piecewise.iter().any(|b| matches!(b.piece, Piece::Linear { .. })) {
        return Vec::new();
    }
    let mut moved = vec![0.0; prices.len()];
    for (a, &k) in free.iter().enumerate() {
        groups[k].0.iter().for_each(|&c| moved[c] = step[a]);
    }
    let mut lengths: Vec<f64> = at
        .piecewise
        .iter()
        .filter_map(|b| {
            let Piece::Linear { rate, .. } = b.piece else { return None };
            let (tender, tender_moves) = (prices[b.tender], moved[b.tender]);
            let (head, head_moves) = match b.receive {
                Head::Copy(d) => (prices[d], moved[d]),
                Head::Out => (1.0, 0.0),
            };
            // tender·(1 + t·s_t) = rate·head·(1 + t·s_h).
            let t = (rate * head - tender) / (tender * tender_moves - rate * head * head_moves);
            (t.is_finite() && t > 0.0 && t < 1.0).then_some(t)
        })
        .collect();
    lengths.sort_by(f64::total_cmp);
    lengths.dedup();
    lengths.truncate(MAX_CORNERS);
    lengths
}

#[cfg(test)]
mod tests {
    use super::corner_lengths;
    use crate::route::convex::curve::Response;
    use crate::route::convex::dual::{Booked, Evaluation, Piece};
    use crate::route::convex::graph::Head;

    fn booked(tender: usize, receive: Head, piece: Piece) -> Booked {
        let response = Response { input: 0.0, output: 0.0, slope: 0.0 };
        Booked { tender, receive, response, piece }
    }

    fn linear(rate: f64) -> Piece {
        Piece::Linear { rate, before: (0.0, 0.0), whole: (1.0, 1.0), tie: false }
    }

    fn evaluation(piecewise: Vec<Booked>) -> Evaluation {
        let (value, magnitude) = (1.0, 1.0);
        let (gradient, hessian, trades) = (vec![0.0; 2], Vec::new(), Vec::new());
        Evaluation { value, magnitude, gradient, hessian, trades, piecewise }
    }

    /// Copy 0 at 2 falls by half per unit of t, copy 1 at 1 rises by 0.4: the pair 0→1 at rate 1.5
    /// meets its corner where 2·(1 − t/2) = 1.5·(1 + 0.4·t), t = 0.3125; the pair 1→tokenOut at 1.1
    /// where 1 + 0.4·t = 1.1, t = 0.25. A corner behind the step (1→tokenOut at 0.9), one past its
    /// end (0→1 at 0.5: t = 1.5) and a side's piece (its corners are not the linear budget's) are
    /// not tried; without a linear pair nothing is.
    #[test]
    fn a_steps_corners_are_where_each_linear_pair_meets_its_rate() {
        let prices = [2.0, 1.0];
        let groups = vec![(vec![0], false), (vec![1], false)];
        let step = [-0.5, 0.4];
        let at = evaluation(vec![
            booked(0, Head::Copy(1), linear(1.5)),
            booked(1, Head::Out, linear(1.1)),
            booked(1, Head::Out, linear(0.9)),
            booked(0, Head::Copy(1), linear(0.5)),
            booked(0, Head::Copy(1), Piece::Side(0)),
        ]);
        let lengths = corner_lengths(&at, &prices, &groups, &[0, 1], &step);
        assert_eq!(lengths.len(), 2, "{lengths:?}");
        assert!((lengths[0] - 0.25).abs() < 1e-15 && (lengths[1] - 0.3125).abs() < 1e-15);
        // At each, the pair's tender over its head is its rate.
        let moved = |c: usize, t: f64| prices[c] * (1.0 + t * step[c]);
        assert!((moved(1, lengths[0]) - 1.1).abs() < 1e-15);
        assert!((moved(0, lengths[1]) / moved(1, lengths[1]) - 1.5).abs() < 1e-15);
        let sides = evaluation(vec![booked(0, Head::Copy(1), Piece::Side(0))]);
        assert!(corner_lengths(&sides, &prices, &groups, &[0, 1], &step).is_empty());
    }
}
