//! The convex bound's answers (`convex::route_flows`: the certified bound and the optimum's paths)
//! of recent split quotes, per trade, until the market changes: a quote of a trade already quoted
//! on this market (the same pair, maxHops, dexes and amountIn: asked by several clients, or a page
//! refreshed within a block) takes them instead of building the graph and solving the dual
//! again, which was about a third of a 2-hop split quote.
//!
//! Exact by construction: the bound is a function of the market, the scope, the amount, the
//! number of paths asked for and what the quote's best candidate pays (the solve stops within
//! 0.05 bps of it, `convex/enough.rs`), all of them in the key but the market, and the owner makes a new
//! cache for every market update, so a block that changes any pool changes every later quote's
//! bound. A bound the deadline may have cut short is not remembered (it is that quote's best
//! effort, not the market's bound). A quote of another amount of the same pair reuses the pair's
//! graph ([`GraphMemos`]) but solves the dual again: a warm start of the dual from another
//! amount's optimum moved plans (docs/solver-optimizer.md, *Where a split quote's time goes*).

use super::convex::graph::{Intermediates, Scope};
use super::convex::Flows;
use super::graph_memos::GraphMemos;
use super::plan_memos::PlanMemos;
use super::quote::RouteSettings;
use super::search::DexMask;
use super::swap_memos::KeptSwapMemos;
use crate::address::Address;
use crate::market::TokenIdx;
use crate::math::U256;
use std::collections::HashMap;
use std::sync::Mutex;

/// Entries kept before the cache starts over (a market rarely sees this many trades in a block).
const MAX_CACHED_BOUNDS: usize = 1024;

/// tokenIn, tokenOut, maxHops, the dexes, amountIn, the most paths asked for and what the quote's
/// best candidate pays (the solve's floor, `convex/enough.rs`).
type Key = (TokenIdx, TokenIdx, usize, DexMask, U256, usize, U256);

/// What a quote's connector tokens depend on besides the market: the settings' fixed list, their
/// count of best-connected tokens, and the native token.
type ConnectorsKey = (Option<Vec<Address>>, usize, Option<TokenIdx>);

/// Per trade, the convex phase's answer (None: no graph to solve, too large or empty); and what
/// else the quotes of one snapshot share: the pairs' graphs, the swap memos, the connectors.
#[derive(Debug, Default)]
pub struct BoundMemos {
    entries: Mutex<HashMap<Key, Option<Flows>>>,
    /// The graphs of the pairs quoted, for a new amount of a pair quoted before.
    graphs: GraphMemos,
    /// The pools' swap memos of the quotes on this snapshot, for the next quote (split or not).
    swaps: KeptSwapMemos,
    /// The whole plans of the requests quoted on this snapshot, for a repeat (`plan_memos.rs`).
    plans: PlanMemos,
    /// The connector tokens of the last quote's settings: a selection of the market's
    /// best-connected tokens, the same for every pair (about a fifth of a fresh 10,000-pool
    /// single-path quote when made for each).
    connectors: Mutex<Option<(ConnectorsKey, Vec<TokenIdx>)>>,
}

impl BoundMemos {
    /// The convex graphs of this snapshot (a new snapshot, or a quote with `poolOverrides`, gets
    /// new ones with its new `BoundMemos`).
    pub fn graphs(&self) -> &GraphMemos {
        &self.graphs
    }

    /// The swap memos kept between the quotes of this snapshot (`swap_memos.rs`), owned like the
    /// graphs: a new snapshot, or a quote with `poolOverrides`, starts with none.
    pub fn swaps(&self) -> &KeptSwapMemos {
        &self.swaps
    }

    /// The plans of the requests quoted on this snapshot (`plan_memos.rs`), owned like the graphs:
    /// a new snapshot, or a quote with `poolOverrides`, starts with none.
    pub fn plans(&self) -> &PlanMemos {
        &self.plans
    }

    /// The connector tokens for `settings` and `native` on this snapshot: remembered, or
    /// `select()`'s (a function of the market, `settings` and `native` only).
    pub fn connectors(
        &self,
        settings: &RouteSettings,
        native: Option<TokenIdx>,
        select: impl FnOnce() -> Vec<TokenIdx>,
    ) -> Vec<TokenIdx> {
        let key = (settings.connectors.clone(), settings.default_connector_count, native);
        let mut remembered = self.connectors.lock().unwrap_or_else(|e| e.into_inner());
        match remembered.as_ref() {
            Some((asked, tokens)) if *asked == key => tokens.clone(),
            _ => {
                let tokens = select();
                *remembered = Some((key, tokens.clone()));
                tokens
            }
        }
    }

    /// The remembered answer for routing `amount_in` over `scope` in at most `limit` paths with
    /// a candidate paying `paid` (the solve stops near it: `convex/enough.rs`), or `route()`'s:
    /// remembered only when `complete()` says, once it has run, that the deadline
    /// did not cut it short. A sub-problem's scope (restricted intermediates) is never remembered.
    pub fn get_or_route(
        &self,
        scope: &Scope,
        amount_in: U256,
        (limit, paid): (usize, U256),
        route: impl FnOnce() -> Option<Flows>,
        complete: impl FnOnce() -> bool,
    ) -> Option<Flows> {
        let Some(key) = key(scope, amount_in, limit, paid) else { return route() };
        // The lock is not held while routing, so concurrent quotes never wait on each other's solve.
        if let Some(flows) = self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return flows.clone();
        }
        let flows = route();
        if complete() {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if entries.len() >= MAX_CACHED_BOUNDS {
                entries.clear();
            }
            entries.insert(key, flows.clone());
        }
        flows
    }
}

fn key(scope: &Scope, amount_in: U256, limit: usize, paid: U256) -> Option<Key> {
    match scope.intermediates {
        Intermediates::Any => {
            let Scope { token_in, token_out, max_hops, dexes, .. } = *scope;
            Some((token_in, token_out, max_hops, dexes, amount_in, limit, paid))
        }
        Intermediates::Except(_) => None,
    }
}

#[cfg(test)]
#[path = "bound_memos_tests.rs"]
mod tests;
