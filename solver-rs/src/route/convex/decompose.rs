//! From the dual's flows to paths a plan can execute.
//!
//! At the dual's prices every venue trades its best response; those trades are the optimum's flows
//! (exactly at the minimiser, nearly elsewhere). A flow is a tree: tokenIn's amount splits over the
//! first venues, collects at each middle token and splits again. A plan is a list of paths, so the
//! tree is measured in tokenIn (each arc carries the share of tokenIn that reaches it: a copy's
//! inflow split over its arcs in proportion to what they take) and decomposed greedily into paths,
//! the widest first: at most one path per arc, and a path's share is what it routes of amountIn.

use super::dual::Trade;
use super::graph::{Graph, Head};
use crate::market::Hop;
use crate::route::path::Path;

/// Paths carrying less than this share of amountIn are dropped (their share goes to the others).
const DUST_SHARE: f64 = 1e-7;

/// A path of the decomposition and the share of amountIn it routes.
#[derive(Clone, Debug)]
pub struct Routed {
    pub path: Path,
    pub share: f64,
}

/// Decomposes the venues' `trades` (one per venue, as the dual evaluation gives them) into at most
/// `limit` paths whose shares sum to 1 (empty if nothing flows).
pub fn decompose(graph: &Graph, trades: &[Option<Trade>], limit: usize) -> Vec<Routed> {
    let n = graph.copies.len();
    // Per arc, what it takes (raw units of its copy's token).
    let mut taken = vec![0.0; graph.arcs.len()];
    for trade in trades.iter().flatten() {
        if trade.response.input > 0.0 {
            taken[trade.arc] = trade.response.input;
        }
    }
    let mut outflow = vec![0.0; n];
    for (a, arc) in graph.arcs.iter().enumerate() {
        outflow[arc.from] += taken[a];
    }
    // Shares of tokenIn, copy by copy in layer order (arcs only go one layer up).
    let mut share_in = vec![0.0; n];
    share_in[0] = 1.0;
    let mut width = vec![0.0; graph.arcs.len()];
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    for layer in 0..=top {
        for (a, arc) in graph.arcs.iter().enumerate() {
            if graph.copies[arc.from].layer != layer || taken[a] <= 0.0 || outflow[arc.from] <= 0.0 {
                continue;
            }
            width[a] = share_in[arc.from] * taken[a] / outflow[arc.from];
            if let Head::Copy(d) = arc.to {
                share_in[d] += width[a];
            }
        }
    }
    let mut routed: Vec<Routed> = Vec::new();
    while routed.len() < limit {
        let Some(arcs) = widest_walk(graph, &width) else { break };
        let share = arcs.iter().map(|&a| width[a]).fold(f64::INFINITY, f64::min);
        if share.is_nan() || share <= DUST_SHARE {
            break;
        }
        for &a in &arcs {
            width[a] -= share;
        }
        routed.push(Routed { path: path_of(graph, &arcs), share });
    }
    let total: f64 = routed.iter().map(|r| r.share).sum();
    if total > 0.0 {
        routed.iter_mut().for_each(|r| r.share /= total);
    }
    routed
}

/// From tokenIn, the arc with the most width left at each copy, to tokenOut. A copy whose arcs are
/// used up (flow the dual left stranded there) closes the arc that led to it, and the walk starts
/// again; None when tokenIn has nothing left.
fn widest_walk(graph: &Graph, width: &[f64]) -> Option<Vec<usize>> {
    let mut width = width.to_vec();
    loop {
        let mut at = 0usize;
        let mut arcs = Vec::new();
        loop {
            let best = (0..graph.arcs.len())
                .filter(|&a| graph.arcs[a].from == at && width[a] > 0.0)
                .fold(None, |best: Option<usize>, a| match best {
                    Some(b) if width[b] >= width[a] => Some(b),
                    _ => Some(a),
                });
            match best {
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
                    width[last] = 0.0;
                    break;
                }
            }
        }
    }
}

fn path_of(graph: &Graph, arcs: &[usize]) -> Path {
    let mut tokens = vec![graph.copies[0].token];
    let mut hops: Vec<Hop> = Vec::with_capacity(arcs.len());
    for &a in arcs {
        let arc = graph.arcs[a];
        hops.push(arc.hop);
        tokens.push(match arc.to {
            Head::Copy(d) => graph.copies[d].token,
            Head::Out => graph.token_out,
        });
    }
    Path { tokens, hops }
}
