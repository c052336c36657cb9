//! The convex bound's graphs (`convex::graph`: the layered venues of a pair and their curves) of
//! recent split quotes, per pair, until the market changes: a quote of a pair already quoted on
//! this market, at any amount, takes the graph instead of building it again. The graph does not
//! depend on the amount, so every quote of a pair on one snapshot shares it (`bound_memos.rs`
//! remembers whole answers, per amount).
//!
//! Exact by construction: a graph is a function of the market and the scope (tokenIn, tokenOut,
//! maxHops, the dexes; a sub-problem's restricted intermediates are never remembered), and its
//! owner, [`BoundMemos`](super::bound_memos::BoundMemos), is made anew for every market update
//! and for every quote with `poolOverrides`. The one state a graph carries between quotes is a
//! concentrated pool's walk over its ticks, extended on demand by the same steps whoever asks
//! first (`pools/clmm/ranges.rs`), so a reused graph answers every curve to the bit. A graph the
//! deadline cut short is not kept; one too large to solve is remembered as such.
//!
//! A graph serves one quote at a time (the walks are extended in place): a quote takes it out and
//! puts it back, and quotes of one pair at once each build their own.

use super::convex::graph::{Graph, Intermediates, Scope, Unbuilt};
use super::search::DexMask;
use crate::market::{Market, TokenIdx};
use crate::route::clock::Deadline;
use std::collections::HashMap;
use std::sync::Mutex;

/// Pairs kept before the cache starts over (a graph of 10,000 pools holds at most
/// `MAX_ARCS` arcs and their curves).
const MAX_CACHED_GRAPHS: usize = 256;

/// tokenIn, tokenOut, maxHops and the dexes.
type Key = (TokenIdx, TokenIdx, usize, DexMask);

/// What a pair's graph build gave: graphs not in use (None: too large or empty, nothing to solve).
type Entry = Option<Vec<Graph>>;

/// Per pair, the convex phase's graphs.
#[derive(Default)]
pub struct GraphMemos {
    entries: Mutex<HashMap<Key, Entry>>,
}

impl std::fmt::Debug for GraphMemos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pairs = self.entries.lock().map_or(0, |e| e.len());
        f.debug_struct("GraphMemos").field("pairs", &pairs).finish()
    }
}

impl GraphMemos {
    /// `solve` on the graph of `scope` on `market`: a remembered one, or one built before
    /// `deadline` (then remembered). None when the graph is too large or empty, or the deadline
    /// passed before it was built.
    pub fn with_graph<R>(
        &self,
        market: &Market,
        scope: &Scope,
        deadline: &Deadline,
        solve: impl FnOnce(&Graph) -> R,
    ) -> Option<R> {
        let Some(key) = key(scope) else {
            let graph = Graph::build_before(market, scope, deadline).ok()?;
            return (!graph.is_empty()).then(|| solve(&graph));
        };
        // The lock is not held while building or solving.
        let taken = match self.lock().get_mut(&key) {
            Some(None) => return None,
            Some(Some(free)) => free.pop(),
            None => None,
        };
        let graph = match taken {
            Some(graph) => graph,
            None => match Graph::build_before(market, scope, deadline) {
                Ok(graph) if !graph.is_empty() => graph,
                Ok(_) | Err(Unbuilt::TooLarge) => {
                    self.remember(key, None);
                    return None;
                }
                Err(Unbuilt::Deadline) => return None,
            },
        };
        let answer = solve(&graph);
        self.remember(key, Some(graph));
        Some(answer)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Puts `graph` back for `key` (None: the pair has nothing to solve).
    fn remember(&self, key: Key, graph: Option<Graph>) {
        let mut entries = self.lock();
        if entries.len() >= MAX_CACHED_GRAPHS && !entries.contains_key(&key) {
            entries.clear();
        }
        match (entries.entry(key).or_insert_with(|| Some(Vec::new())), graph) {
            (Some(free), Some(graph)) => free.push(graph),
            (slot, None) => *slot = None,
            (None, Some(_)) => {}
        }
    }
}

fn key(scope: &Scope) -> Option<Key> {
    match scope.intermediates {
        Intermediates::Any => Some((scope.token_in, scope.token_out, scope.max_hops, scope.dexes)),
        Intermediates::Except(_) => None,
    }
}

#[cfg(test)]
#[path = "graph_memos_tests.rs"]
mod tests;
