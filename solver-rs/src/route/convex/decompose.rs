//! From the dual's flows to paths a plan can execute.
//!
//! At the dual's prices every venue trades its best response; those trades are the optimum's flows
//! (exactly at the minimiser, nearly elsewhere). A flow is a tree: tokenIn's amount splits over the
//! first venues, collects at each middle token and splits again. A plan is a list of paths, each
//! given an amount of tokenIn, so the flow is decomposed as a flow *with gains*: each arc carries
//! its input in its own token and turns a unit of it into `gain` = output/input units of the next
//! (the venue's average rate in the optimum). A path of x tokenIn carries x·(product of the gains
//! before it) into each of its arcs; peeling paths greedily (each one as wide as its narrowest arc
//! allows) leaves every arc with exactly the input the optimum gives it, so a venue the optimum
//! drains receives what it can take and no more. Each peel empties an arc, so there are at most
//! as many paths as arcs with flow.
//!
//! A token with copies in two layers sends its flow to tokenOut through its pools from the
//! deeper copy where the prices tie (the optimum's prices do): the shallower copy's excess passes
//! on to the next layer's copy, a hop of no pool and gain 1 that the walks take like an arc
//! (dual.rs books ties that way).

use super::curve::Response;
use super::dual::{head_price, Evaluation, Piece, Trade};
use super::graph::{Graph, Head};
use super::ties::{deeper_copies, NEAR};
use crate::market::Hop;
use crate::route::path::Path;

/// Paths carrying less than this share of amountIn are dropped (their share goes to the others).
const DUST_SHARE: f64 = 1e-7;
/// Arc flows below this fraction of what the arc took count as used up (float residue of peels).
const RESIDUE: f64 = 1e-9;

/// A path of the decomposition and the share of amountIn it routes.
#[derive(Clone, Debug)]
pub struct Routed {
    pub path: Path,
    pub share: f64,
}

/// Decomposes the venues' `trades` (one per venue, as the dual evaluation gives them) for routing
/// `amount_in` (raw tokenIn) into at most `limit` paths whose shares sum to 1 (empty if nothing
/// flows), widest first.
pub fn decompose(
    graph: &Graph,
    trades: &[Option<Trade>],
    amount_in: f64,
    limit: usize,
) -> Vec<Routed> {
    // Per arc: what it takes (raw units of its copy's token) and what a unit of that pays.
    let mut left = vec![0.0; graph.arcs.len()];
    let mut gain = vec![0.0; graph.arcs.len()];
    for trade in trades.iter().flatten() {
        let response = trade.response;
        if response.input > 0.0 && response.output > 0.0 {
            left[trade.arc] = response.input;
            gain[trade.arc] = response.output / response.input;
        }
    }
    // Pass-ons, after the arcs: copy c's excess (inflow − outflow) to its next layer's copy.
    let deeper = deeper_copies(graph);
    let mut excess = vec![0.0; graph.copies.len()];
    for (a, arc) in graph.arcs.iter().enumerate() {
        excess[arc.from] -= left[a];
        if let Head::Copy(d) = arc.to {
            excess[d] += left[a] * gain[a];
        }
    }
    for c in 1..graph.copies.len() {
        left.push(if deeper[c].is_some() { excess[c].max(0.0) } else { 0.0 });
        gain.push(1.0);
    }
    let took = left.clone();
    let mut routed: Vec<Routed> = Vec::new();
    let mut routed_in = 0.0;
    while routed.len() < limit && routed_in < amount_in {
        let Some(arcs) = widest_walk(graph, &deeper, &mut left, &took) else { break };
        // The most tokenIn the path can carry: each arc's flow left over what reaches it per unit.
        let mut reach = 1.0;
        let mut x = amount_in - routed_in;
        for &a in &arcs {
            x = x.min(left[a] / reach);
            reach *= gain[a];
        }
        // Not above the dust (NaN included).
        if x.partial_cmp(&(DUST_SHARE * amount_in)) != Some(std::cmp::Ordering::Greater) {
            // Too thin to route: its arcs' residue is spent, so the walks move on.
            arcs.iter().for_each(|&a| {
                if left[a] <= DUST_SHARE * took[a].max(1.0) {
                    left[a] = 0.0
                }
            });
            if let Some(&narrowest) = arcs.iter().min_by(|&&a, &&b| left[a].total_cmp(&left[b])) {
                left[narrowest] = 0.0;
            }
            continue;
        }
        let mut reach = 1.0;
        for &a in &arcs {
            left[a] -= x * reach;
            if left[a] <= RESIDUE * took[a] {
                left[a] = 0.0;
            }
            reach *= gain[a];
        }
        routed_in += x;
        routed.push(Routed { path: path_of(graph, &arcs), share: x });
    }
    if routed_in > 0.0 {
        routed.iter_mut().for_each(|r| r.share /= routed_in);
    }
    routed.sort_by(|a, b| b.share.total_cmp(&a.share));
    routed
}

/// The venues' trades at `prices` (where `at` was evaluated) with each side on a linear piece's
/// corner carrying what the solve carries there: its tender's excess with the side at the pieces
/// before the corner (none below 0, at most the piece), copies taken from tokenIn's layer on, so a
/// corner's output reaches the corners after it, and what a copy leaves unsent passing on to its
/// token's next layer (as [`decompose`] passes it). On its corner a side may carry anything along
/// the piece at the same g, and the evaluation books it as one end: the pieces before it (no input
/// on its first corner) or the whole piece. The solve joins the copies such a side ties
/// (corners.rs, `Corners::join`), so its optimum's flow goes through it, and booked at no input the
/// decomposition peeled no path there: DEGEN→cbETH 3-hop $10,000 on the embedded market, the dual
/// converged with $371 of USDC after one hop through the E-CLP USDC/WETH on its side's first corner,
/// the plan 5.71 bps under the bound (docs/dex-kinds.md, GYROSCOPE_ECLP, *Route quality*). A pooled
/// venue's linear pairs are left as booked.
pub fn carried_at_corners(graph: &Graph, prices: &[f64], at: &Evaluation) -> Vec<Option<Trade>> {
    let mut trades = at.trades.clone();
    if at.piecewise.is_empty() {
        return trades;
    }
    let mut excess = at.gradient.clone();
    // (tender, receive, the pieces before (input, output), the piece (input, output), its trade)
    let mut corners = Vec::new();
    for booked in &at.piecewise {
        let Piece::Side(side) = booked.piece else { continue };
        let worth = head_price(prices, booked.receive);
        if !(worth > 0.0 && prices[booked.tender] > 0.0) {
            continue;
        }
        let rate = prices[booked.tender] / worth;
        let before = booked.piece.respond(graph, rate * (1.0 + NEAR));
        let through = booked.piece.respond(graph, rate * (1.0 - NEAR));
        let piece = (through.0 - before.0, through.1 - before.1);
        // NaN: no corner either.
        if piece.0.is_nan() || piece.0 <= 0.0 {
            continue;
        }
        let Some(t) = trades.iter().position(|t| t.is_some_and(|t| graph.arcs[t.arc].side == side))
        else {
            continue;
        };
        excess[booked.tender] += booked.response.input - before.0;
        if let Head::Copy(d) = booked.receive {
            excess[d] -= booked.response.output - before.1;
        }
        corners.push((booked.tender, booked.receive, before, piece, t));
    }
    let deeper = deeper_copies(graph);
    let mut copies: Vec<usize> = (0..graph.copies.len()).collect();
    copies.sort_by_key(|&c| graph.copies[c].layer);
    for c in copies {
        for &(_, receive, before, piece, t) in corners.iter().filter(|corner| corner.0 == c) {
            let carried = excess[c].clamp(0.0, piece.0);
            let output = carried * piece.1 / piece.0;
            excess[c] -= carried;
            if let Head::Copy(d) = receive {
                excess[d] += output;
            }
            if let Some(trade) = trades[t].as_mut() {
                let slope = trade.response.slope;
                trade.response =
                    Response { input: before.0 + carried, output: before.1 + output, slope };
            }
        }
        if let Some(d) = deeper[c] {
            if excess[c] > 0.0 {
                excess[d] += excess[c];
            }
        }
    }
    trades
}

/// From tokenIn, the arc (or pass-on, index `arcs.len() + c − 1` for copy c) with the most flow
/// left at each copy, to tokenOut. A copy whose arcs are used up (flow the dual left stranded
/// there) closes the arc that led to it for good, and the walk starts again; None when tokenIn
/// has nothing left.
fn widest_walk(
    graph: &Graph,
    deeper: &[Option<usize>],
    left: &mut [f64],
    took: &[f64],
) -> Option<Vec<usize>> {
    loop {
        let mut at = 0usize;
        let mut arcs = Vec::new();
        loop {
            // Compared as the fraction of its copy's flow each arc still has: arcs from one copy
            // are in the same token, so this is the widest.
            // Copy c > 0's pass-on is arc `arcs.len() + c − 1` (copy 0, tokenIn's, has none).
            let onward =
                deeper[at].and(at.checked_sub(1)).map(|c| graph.arcs.len().saturating_add(c));
            let best = (0..graph.arcs.len())
                .filter(|&a| graph.arcs[a].from == at)
                .chain(onward)
                .filter(|&a| left[a] > 0.0 && took[a] > 0.0)
                .fold(None, |best: Option<usize>, a| match best {
                    Some(b) if left[b] >= left[a] => Some(b),
                    _ => Some(a),
                });
            match best {
                Some(a) if a >= graph.arcs.len() => {
                    arcs.push(a);
                    at = deeper[at].expect("a pass-on leads to the next layer");
                }
                Some(a) => {
                    arcs.push(a);
                    match graph.arcs[a].to {
                        Head::Out => return Some(arcs),
                        Head::Copy(d) => at = d,
                    }
                }
                None if arcs.is_empty() => return None,
                None => {
                    let last = *arcs.last().expect("not empty");
                    left[last] = 0.0;
                    break;
                }
            }
        }
    }
}

fn path_of(graph: &Graph, arcs: &[usize]) -> Path {
    let mut tokens = vec![graph.copies[0].token];
    let mut hops: Vec<Hop> = Vec::with_capacity(arcs.len());
    for &a in arcs.iter().filter(|&&a| a < graph.arcs.len()) {
        let arc = graph.arcs[a];
        hops.push(arc.hop);
        tokens.push(match arc.to {
            Head::Copy(d) => graph.copies[d].token,
            Head::Out => graph.token_out,
        });
    }
    Path { tokens, hops }
}
