//! Whether the dual's solve (`solve.rs`) stopped where flow is conserved: the first-order
//! condition of g's minimum, read on the flows its corners allow.

use super::corners::{Corners, Joined};
use super::dual::{head_price, Evaluation};
use super::graph::Graph;
use super::ties::{locked_links, tie_groups};

/// Flow counts as conserved when no tie group's excess, valued at its price, is above this
/// fraction of g ([`conserved`]). Newton's decrement below its tolerance (`solve.rs`'s
/// `TOLERANCE`) puts it near 10⁻⁷ where g is smooth.
pub(super) const FLOW_TOLERANCE: f64 = 1e-6;
/// A copy priced below this fraction of its first unit's worth counts as driven towards 0
/// ([`conserved`]).
pub(super) const DRIVEN: f64 = 1e-6;

/// Whether flow is conserved at `prices`: every tie group's excess (inflow minus outflow at the
/// venues' best trades, summed over its copies, tokenIn's inflow amountIn), valued at its copies'
/// prices, is within [`FLOW_TOLERANCE`] of g. That is g's slope along the group's scaled price, so
/// where it holds for every group no move of any one price lowers g by more than that fraction:
/// the first-order condition of the minimum, which Newton's decrement only approximates through
/// its model (on a linear piece's corner the model's stand-in curvature is huge and the decrement
/// vanishes with the slope still large). A stranded copy (flow left at a middle token, its price
/// driven towards 0) passes: its excess is positive and its price makes it worth nothing. Valued
/// at such a price, a copy that sends more than it receives would pass too (Newton, in prices
/// scaled by ones near 0, stops there: docs/solver-optimizer.md, *The certificate*), so a group
/// priced below [`DRIVEN`] of what its trades get for it ([`sold_at`]) must not be overdrawn by
/// more than the tolerance valued at that.
///
/// On a linear piece's corner the venue may trade anything along the piece at the same value of
/// g, so the test reads the flows the corner allows (`Corners`): copies joined by such a piece
/// count as one group, whose valued excess does not depend on how much the piece carries, and a
/// group pinned to tokenOut by one passes where its excess is what the pieces to tokenOut can
/// carry: between 0 and their inputs on the corner, valued. A pinned group was let pass whatever
/// its excess, and a copy joined to it after its pin was read left it overdrawn 610 times g with
/// the solve reported converged 20 times above the plan (wstETH→cbETH 3-hop $100 on the vault's
/// joint budget, today's fixture, `solve_tests.rs`).
pub(super) fn conserved(
    graph: &Graph,
    deeper: &[Option<usize>],
    prices: &[f64],
    at: &Evaluation,
) -> bool {
    imbalance(graph, deeper, prices, at) <= FLOW_TOLERANCE
}

/// [`conserved`]'s measure: the largest valued excess of a group (a group driven towards 0: its
/// overdraft valued at what its trades get for it, if larger; a pinned group: how far it is
/// outside what its pins carry), as a fraction of |g|.
pub(super) fn imbalance(
    graph: &Graph,
    deeper: &[Option<usize>],
    prices: &[f64],
    at: &Evaluation,
) -> f64 {
    let ceiling = sold_at(graph, prices, at);
    let flows = Corners::at(graph, prices, at);
    let locked = locked_links(graph, deeper);
    let ties = tie_groups(deeper, &locked, prices, flows.gradient(at));
    let Joined { groups, gradient, carried, .. } = flows.join(at, prices, ties, &locked);
    let gradient = gradient.as_deref().unwrap_or(&at.gradient);
    let fraction = |off: f64| match off {
        off if off.is_nan() => f64::INFINITY,
        off if off <= 0.0 => 0.0,
        off => off / at.value.abs(),
    };
    groups.iter().zip(&carried).fold(0.0, |largest, ((group, pinned), &carry)| {
        let worth: f64 = group.iter().map(|&c| prices[c] * gradient[c]).sum();
        let driven = group.iter().all(|&c| prices[c] < DRIVEN * ceiling[c]);
        let overdrawn = -group.iter().map(|&c| ceiling[c] * gradient[c]).sum::<f64>();
        let off = match (pinned, driven) {
            (true, _) => (-worth).max(worth - carry),
            (false, true) => worth.abs().max(overdrawn),
            (false, false) => worth.abs(),
        };
        largest.max(fraction(off))
    })
}

/// Per copy, what the venues' trades at `at` get for each unit it sends: their output valued at
/// their heads' prices over their input, and its price where it sends nothing. A copy priced near
/// 0 and overdrawn drains the venues it tenders to, which pay for it what its heads are worth.
/// Its first unit's worth (the best zero-size rate on) is no such measure: a curve's rounding
/// allowance pays about a raw unit out for each of its first 64 raw units in (LUNARBASE's, a
/// WOOFi side's first piece), which priced cbETH's first unit at 1.1 raw USDC per wei, 3·10⁸ times
/// its worth, and held a converged solve (cbETH→USDC 2-hop $100, its tokenIn overdrawn by 10⁻¹¹
/// cbETH) unconverged.
pub(super) fn sold_at(graph: &Graph, prices: &[f64], at: &Evaluation) -> Vec<f64> {
    let n = prices.len();
    let (mut sent, mut got) = (vec![0.0; n], vec![0.0; n]);
    for trade in at.trades.iter().flatten() {
        let arc = graph.arcs[trade.arc];
        sent[arc.from] += trade.response.input;
        got[arc.from] += trade.response.output * head_price(prices, arc.to);
    }
    (0..n)
        .map(|c| match sent[c] > 0.0 {
            true => (got[c] / sent[c]).max(prices[c]),
            false => prices[c],
        })
        .collect()
}
