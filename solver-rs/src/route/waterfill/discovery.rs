//! Fynd's bounded, amount-aware discovery: a frontier search from tokenIn carrying the whole
//! amount, which swaps every edge it considers and prefers edges into tokenOut, then into anchor
//! tokens (the most connected ones), so routes through well-connected middle tokens survive
//! even when the exhaustive list is cut. Its paths are tried before the exhaustive ones.
//!
//! Per frontier state, edges are scored by (priority, output) — priority 0 into tokenOut, 2 into an
//! anchor, 3 otherwise (considered only when the state has no edge of priority 0 or 2) — and the
//! best [`EDGES_PER_STATE`] kept, at most [`DIRECT_EDGES_PER_TOKEN`] pools into tokenOut and
//! [`CONNECTOR_EDGES_PER_TOKEN`] into any other token. After each depth the frontier keeps the
//! [`STATES_PER_NODE`] best amounts per token. Found paths rank by output; the first
//! [`MAX_DISCOVERY_CANDIDATES`] distinct ones are kept. Fynd also anchors its native-ETH sentinel
//! (the zero address); our markets route the wrapped token only, which is an ordinary token here.

use super::swap_cache::SwapCache;
use super::{
    Query, CONNECTOR_EDGES_PER_TOKEN, DERIVED_ANCHOR_COUNT, DIRECT_EDGES_PER_TOKEN,
    EDGES_PER_STATE, MAX_DISCOVERY_CANDIDATES, STATES_PER_NODE,
};
use crate::market::{Hop, Market, TokenIdx};
use crate::math::U256;
use crate::route::clock::Deadline;
use crate::route::path::Path;
use crate::route::search::DexMask;
use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, HashSet};

/// A partial path and what it delivers at its last token.
#[derive(Clone)]
struct State {
    path: Path,
    amount: U256,
}

/// One edge a state may take, swapped.
struct Scored {
    next: TokenIdx,
    hop: Hop,
    amount: U256,
    priority: u8,
}

/// Runs the discovery for `amount_in` and returns its paths, best output first.
pub fn discover(
    market: &Market,
    query: &Query,
    amount_in: U256,
    cache: &mut SwapCache,
    deadline: &Deadline,
) -> Vec<Path> {
    let Query { token_in, token_out, max_hops, dexes } = *query;
    let anchors: HashSet<TokenIdx> =
        market.best_connected_tokens(DERIVED_ANCHOR_COUNT).into_iter().collect();
    let mut found: Vec<(Path, U256)> = Vec::new();
    let mut frontier =
        vec![State { path: Path { tokens: vec![token_in], hops: Vec::new() }, amount: amount_in }];
    for _ in 0..max_hops {
        if deadline.expired() || frontier.is_empty() {
            break;
        }
        let mut by_token: BTreeMap<TokenIdx, Vec<State>> = BTreeMap::new();
        for state in frontier {
            let at = *state.path.tokens.last().expect("a state has a token");
            if at == token_out {
                continue;
            }
            let mut edges = score(market, &state, token_out, &anchors, true, dexes, cache);
            if edges.is_empty() {
                edges = score(market, &state, token_out, &anchors, false, dexes, cache);
            }
            for edge in select(edges) {
                if deadline.expired() {
                    break;
                }
                let mut path = state.path.clone();
                path.tokens.push(edge.next);
                path.hops.push(edge.hop);
                if edge.next == token_out {
                    found.push((path.clone(), edge.amount));
                }
                if path.hops.len() < max_hops {
                    by_token
                        .entry(edge.next)
                        .or_default()
                        .push(State { path, amount: edge.amount });
                }
            }
        }
        frontier = by_token
            .into_values()
            .flat_map(|mut states| {
                states.sort_by_key(|s| Reverse(s.amount));
                states.truncate(STATES_PER_NODE);
                states
            })
            .collect();
    }
    found.sort_by_key(|f| Reverse(f.1));
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|(path, _)| seen.insert(path.hops.iter().map(|h| h.pool).collect::<Vec<_>>()))
        .take(MAX_DISCOVERY_CANDIDATES)
        .map(|(path, _)| path)
        .collect()
}

/// The edges out of `state`'s token it may take, swapped at its amount: with `preferred_only`, only
/// those into tokenOut or an anchor.
fn score(
    market: &Market,
    state: &State,
    token_out: TokenIdx,
    anchors: &HashSet<TokenIdx>,
    preferred_only: bool,
    dexes: DexMask,
    cache: &mut SwapCache,
) -> Vec<Scored> {
    let at = *state.path.tokens.last().expect("a state has a token");
    let mut scored = Vec::new();
    for &next in market.neighbours(at) {
        let priority = if next == token_out {
            0
        } else if anchors.contains(&next) {
            2
        } else if preferred_only {
            continue;
        } else {
            3
        };
        // A token already on the path (tokenIn included) is never re-entered, so no pool repeats.
        if state.path.tokens.contains(&next) {
            continue;
        }
        for hop in market.edge(at, next) {
            if !dexes.allows(market.pool(hop.pool).dex) {
                continue;
            }
            if let Some((amount, _)) = cache.hop(market, *hop, state.amount) {
                scored.push(Scored { next, hop: *hop, amount, priority });
            }
        }
    }
    scored
}

/// The best edges by (priority, output), within the per-token and per-state limits.
fn select(mut scored: Vec<Scored>) -> Vec<Scored> {
    scored.sort_by(|a, b| a.priority.cmp(&b.priority).then_with(|| b.amount.cmp(&a.amount)));
    let mut per_token: HashMap<TokenIdx, usize> = HashMap::new();
    let mut selected = Vec::new();
    for edge in scored {
        let limit =
            if edge.priority == 0 { DIRECT_EDGES_PER_TOKEN } else { CONNECTOR_EDGES_PER_TOKEN };
        let count = per_token.entry(edge.next).or_default();
        if *count >= limit {
            continue;
        }
        *count = count.saturating_add(1);
        selected.push(edge);
        if selected.len() >= EDGES_PER_STATE {
            break;
        }
    }
    selected
}
