//! Whole plans of recent quotes, per request, until the market changes: a request asked again on
//! the same snapshot (an integrator polling a quote, a page refreshed within a block: the HTTP
//! bench's 200 identical requests a second, 400 a block) is answered with the plan the first one
//! computed, without searching, evaluating or optimizing again. The bound's memo
//! (`bound_memos.rs`) spares a repeat the convex solve only; the searches, the evaluation and the
//! optimizer were still about 2 ms of CPU per repeat on the embedded market.
//!
//! Exact by construction: a plan is a function of the market snapshot, the solver's settings, the
//! request, and the snapshot's memos (gas pricers, bounds, graphs, swap walks: each exact for the
//! snapshot), as long as no deadline cut the solve. The owner, [`BoundMemos`](super::bound_memos),
//! is made anew for every market update and for every request with `poolOverrides`, and the key
//! holds every field of the request a plan depends on. Two fields are not in it: `timePhases` (it
//! only adds the timings; a plan served from here has none, it cost no solve) and `timeBudgetMs`,
//! because only a plan no deadline touched (`metadata.stoppedIn` absent: no check found the
//! deadline passed, no share of it cut a phase) is remembered, and that plan is what any budget
//! long enough to let the solve finish gives; a repeat gets it at once, within any budget. A plan
//! the budget cut is that call's best effort, not the market's answer: never remembered, so a
//! repeat solves again (and is never told a cut plan converged).

use super::clock::PhaseMs;
use super::plan::Plan;
use super::request::QuoteRequest;
use crate::address::Address;
use crate::dex::DexId;
use crate::math::U256;
use std::collections::HashMap;
use std::sync::Mutex;

/// Plans kept before the cache starts over (a market rarely sees this many distinct requests in a
/// block; a plan of 8 routes of 3 legs is a few kB).
const MAX_CACHED_PLANS: usize = 1024;

/// tokenIn, tokenOut, amountIn, slippageBps, the hops searched, split, pool-disjoint, the allowed
/// dexes as asked, gasPriceWei (absent as 0, as the solve reads it).
type Key = (Address, Address, U256, u32, u32, bool, bool, Option<Vec<DexId>>, U256);

/// Per request, the plan of a solve that ran to its end on this snapshot.
#[derive(Debug, Default)]
pub struct PlanMemos {
    entries: Mutex<HashMap<Key, Plan>>,
}

impl PlanMemos {
    /// The plan remembered for `request` on this snapshot, without `phaseMs` (it cost no solve);
    /// None for a request with `poolOverrides` (never remembered).
    pub fn get(&self, request: &QuoteRequest) -> Option<Plan> {
        self.lock().get(&key(request)?).cloned()
    }

    /// Remembers `plan`, the solve of `request`, when it ran to its end (`metadata.stoppedIn`
    /// absent); a request with `poolOverrides` is not remembered.
    pub fn keep(&self, request: &QuoteRequest, plan: &Plan) {
        let Some(key) = key(request) else { return };
        if plan.metadata.stopped_in.is_some() {
            return;
        }
        let mut kept = plan.clone();
        kept.metadata.phase_ms = PhaseMs::default();
        let mut entries = self.lock();
        if entries.len() >= MAX_CACHED_PLANS {
            entries.clear();
        }
        entries.insert(key, kept);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Plan>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn key(request: &QuoteRequest) -> Option<Key> {
    if request.pool_overrides.as_ref().is_some_and(|o| !o.is_empty()) {
        return None;
    }
    Some((
        request.token_in,
        request.token_out,
        request.amount_in,
        request.slippage_bps,
        request.hops(),
        request.split_enabled.unwrap_or(true),
        request.enforce_pool_disjoint.unwrap_or(false),
        request.allowed_dexes.clone(),
        request.gas_price_wei.unwrap_or(U256::ZERO),
    ))
}

#[cfg(test)]
#[path = "plan_memos_tests.rs"]
mod tests;
