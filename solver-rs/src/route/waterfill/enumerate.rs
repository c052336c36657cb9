//! Fynd's exhaustive candidates: every path from tokenIn to tokenOut of at most `maxHops` hops,
//! one per combination of the pools serving its legs, shortest first (Fynd enumerates token paths
//! breadth-first and expands each into its pool combinations). When there are more than
//! [`MAX_CANDIDATES`], they are ranked by Fynd's heuristic, the product of the legs' spot prices
//! times the thinnest leg's depth, and cut.
//!
//! Paths here are simple (no token twice, so no pool twice): Fynd's search may revisit a token, but
//! its split assembly refuses a path that does, and the bound these paths are compared with
//! leaves such cycles out on purpose (they would be arbitrage, not routing).

use super::depth::Depths;
use super::{Query, MAX_CANDIDATES};
use crate::market::{Market, TokenIdx};
use crate::pools::PoolModel;
use crate::route::path::Path;
use crate::route::search::DexMask;

/// Every simple path of 1..=`max_hops` hops through pools `dexes` allows, shortest first, in the
/// market's order (neighbours by address, pools by id); at most [`MAX_CANDIDATES`], the best by
/// spot price × thinnest depth when there are more.
pub fn enumerate(market: &Market, query: &Query, depths: &Depths) -> Vec<Path> {
    let Query { token_in, token_out, max_hops, dexes } = *query;
    let to_out = hops_to(market, token_out, max_hops, dexes);
    let mut paths = Vec::new();
    for length in 1..=max_hops {
        let mut prefix = Path { tokens: vec![token_in], hops: Vec::new() };
        extend(market, &mut prefix, length, token_out, dexes, &to_out, &mut paths);
    }
    if paths.len() > MAX_CANDIDATES {
        let scores: Vec<f64> = paths.iter().map(|p| score(market, p, depths)).collect();
        let mut order: Vec<usize> = (0..paths.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        order.truncate(MAX_CANDIDATES);
        let mut slots: Vec<Option<Path>> = paths.into_iter().map(Some).collect();
        paths = order.into_iter().map(|i| slots[i].take().expect("each index once")).collect();
    }
    paths
}

/// Fynd's `try_score_path`: the product of the legs' spot prices (fee included) times the smallest
/// of their depths (each in its own input token's raw units, as Fynd takes them). A leg without a
/// depth sorts the path behind every scored one.
fn score(market: &Market, path: &Path, depths: &Depths) -> f64 {
    let mut price = 1.0;
    let mut depth = f64::MAX;
    for hop in &path.hops {
        let Some(d) = depths.get(market, *hop) else { return f64::MIN };
        price *=
            market.pool(hop.pool).state.spot_price(hop.token_in as usize, hop.token_out as usize);
        depth = depth.min(d);
    }
    price * depth
}

/// Hops from each token to `target` (up to `max_hops`; beyond: usize::MAX), so the walk never
/// enters a token from which tokenOut is out of reach.
fn hops_to(
    market: &Market,
    target: TokenIdx,
    max_hops: usize,
    dexes: DexMask,
) -> std::collections::HashMap<TokenIdx, usize> {
    let mut distance = std::collections::HashMap::from([(target, 0usize)]);
    let mut frontier = vec![target];
    for d in 1..=max_hops {
        let mut next = Vec::new();
        for &token in &frontier {
            for &neighbour in market.neighbours(token) {
                let usable = market
                    .edge(neighbour, token)
                    .iter()
                    .any(|h| dexes.allows(market.pool(h.pool).dex));
                if usable && !distance.contains_key(&neighbour) {
                    distance.insert(neighbour, d);
                    next.push(neighbour);
                }
            }
        }
        frontier = next;
    }
    distance
}

fn extend(
    market: &Market,
    prefix: &mut Path,
    length: usize,
    token_out: TokenIdx,
    dexes: DexMask,
    to_out: &std::collections::HashMap<TokenIdx, usize>,
    paths: &mut Vec<Path>,
) {
    let at = *prefix.tokens.last().expect("a path starts at tokenIn");
    let left = length.saturating_sub(prefix.hops.len());
    for &next in market.neighbours(at) {
        let reachable = to_out.get(&next).is_some_and(|d| *d < left);
        let last = left == 1;
        if !reachable || (next == token_out) != last || prefix.tokens.contains(&next) {
            continue;
        }
        for hop in market.edge(at, next) {
            if !dexes.allows(market.pool(hop.pool).dex) {
                continue;
            }
            prefix.tokens.push(next);
            prefix.hops.push(*hop);
            if last {
                paths.push(prefix.clone());
            } else {
                extend(market, prefix, length, token_out, dexes, to_out, paths);
            }
            prefix.tokens.pop();
            prefix.hops.pop();
        }
    }
}
