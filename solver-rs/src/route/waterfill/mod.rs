//! Fynd's water-filling router (Propeller Heads' Fynd, `fynd-core/src/algorithm/water_fill`),
//! reimplemented on our exact pool models: the reference issue 8 measures our plans against
//! ("better than water-filling over the same pools on every trade"). It is not used to answer
//! quotes. The facts it follows are Fynd's published source and docs (docs/solver-optimizer.md,
//! *Water-filling reference*); the code is our own.
//!
//! The venues are ours to the wei: every swap is an exact `apply` on our models, and the pools are
//! those of the convex bound's scope (every direction on a path of at most `maxHops` from tokenIn
//! to tokenOut, `allowedDexes` applied). The steps:
//!
//! 1. **Candidates** ([`enumerate`], [`discovery`]): every simple path up to `maxHops` (cut to
//!    5,000 by spot × depth when there are more), behind the bounded discovery's paths.
//! 2. **Ranking**: every candidate swapped at the whole amount; paths that can take it first, by
//!    output net of gas, then the rest. The best is the single-path floor.
//! 3. **Splits** ([`fill`], [`exchange`]): a 20-chunk gated water-fill over up to 4 pool-disjoint
//!    paths; a 256-chunk one over the paths it used, refined by exchanges; and fill-and-spill, the
//!    chunked water-fill over up to 12 paths that may share pools, which reaches tree routes.
//! 4. **Trees** ([`tree`]): each split runs as Fynd executes it — shared hops merged, the amount
//!    collected at every token re-split across its outgoing swaps — exactly on our models; the
//!    best output net of gas wins if it beats the single path.

mod answer;
mod candidate;
mod depth;
mod discovery;
mod enumerate;
mod exchange;
mod fill;
mod swap_cache;
mod tree;
mod view;

#[cfg(test)]
#[path = "waterfill_tests.rs"]
mod tests;
#[cfg(test)]
mod tree_tests;

pub use answer::{PathShareOut, WaterfillPlan};
pub use candidate::Strategy;
pub use depth::Depths;
pub use tree::{Tree, TreeSwap};

use super::clock::{Clock, Deadline};
use super::gas::{GasPricer, GasPricers};
use super::net::Net;
use super::path::Path;
use super::quote::{connectors, RouteSettings};
use super::request::QuoteRequest;
use super::search::DexMask;
use crate::error::SolverError;
use crate::market::{Market, TokenIdx};
use crate::math::U256;
use candidate::Candidate;
use std::cmp::Reverse;
use swap_cache::SwapCache;

/// Candidate paths kept after Fynd's spot × depth ranking.
pub const MAX_CANDIDATES: usize = 5000;
/// Paths taken from the bounded discovery.
pub const MAX_DISCOVERY_CANDIDATES: usize = 128;
/// Paths of a split, at most.
pub const MAX_PATHS: usize = 4;
/// Chunks of the coarse (set-selection) pass.
pub const COARSE_CHUNKS: usize = 20;
/// Chunks of the fine pass.
pub const FINE_CHUNKS: usize = 256;
/// Best whole-amount paths always offered to fill-and-spill.
pub const SHARED_FULL_PATHS: usize = 8;
/// Whole-amount-ranked paths probed with the first coarse chunk for fill-and-spill.
pub const SHARED_MARGIN_PROBE_PATHS: usize = 32;
/// Probe winners added to fill-and-spill's paths.
pub const SHARED_MARGIN_PATHS: usize = 8;
/// Fill-and-spill's paths, at most.
pub const SHARED_MAX_CANDIDATES: usize = 12;
/// Discovery: frontier states kept per token.
pub const STATES_PER_NODE: usize = 4;
/// Discovery: edges expanded per state.
pub const EDGES_PER_STATE: usize = 16;
/// Discovery: pools kept per state into tokenOut.
pub const DIRECT_EDGES_PER_TOKEN: usize = 4;
/// Discovery: pools kept per state into any other token.
pub const CONNECTOR_EDGES_PER_TOKEN: usize = 2;
/// Discovery: the most connected tokens are its anchors.
pub const DERIVED_ANCHOR_COUNT: usize = 16;
/// Exchange refinement stops below one fine chunk divided by this.
pub const EXCHANGE_DELTA_FLOOR: usize = 64;
/// Exchange refinement's path simulations, at most.
pub const EXCHANGE_MAX_SIMS: usize = 400;

/// What a candidate search looks for: paths of 1..=`max_hops` hops from tokenIn to tokenOut
/// through pools `dexes` allows.
#[derive(Clone, Copy)]
pub struct Query {
    pub token_in: TokenIdx,
    pub token_out: TokenIdx,
    pub max_hops: usize,
    pub dexes: DexMask,
}

/// What every pass of one solve reads.
pub struct Solve<'a> {
    pub market: &'a Market,
    /// The candidate paths, in whole-amount ranking order.
    pub paths: Vec<Path>,
    pub amount_in: U256,
    pub pricer: GasPricer,
    pub deadline: &'a Deadline<'a>,
}

/// Routes `request` the way Fynd's water-fill does, over our pools (see the module docs). The time
/// budget (`timeBudgetMs`, default the solver's) runs on `clock`; past it every pass keeps what it
/// has, as Fynd's do. `splitEnabled: false` answers the single-path floor; `enforcePoolDisjoint`
/// leaves fill-and-spill out. `pricers` and `depths` are the solver's caches for this market.
pub fn waterfill(
    market: &Market,
    settings: &RouteSettings,
    request: &QuoteRequest,
    pricers: &GasPricers,
    depths: &Depths,
    clock: &dyn Clock,
) -> Result<WaterfillPlan, SolverError> {
    request.validate()?;
    let deadline = Deadline::after_ms(
        request.time_budget_ms.unwrap_or(settings.default_time_budget_ms),
        clock,
    );
    let known = |address, field: &str| {
        market
            .token(address)
            .ok_or_else(|| SolverError::no_route(format!("no pool holds {field} {address}")))
    };
    let token_in = known(&request.token_in, "tokenIn")?;
    let token_out = known(&request.token_out, "tokenOut")?;
    let max_hops = request.hops() as usize;
    let dexes = request.allowed_dexes.as_deref().map_or(DexMask::ALL, DexMask::of);
    let amount_in = request.amount_in;

    // Gas is priced exactly as our quotes price it (same pricer, same cache).
    let native = settings.native_token.and_then(|a| market.token(&a));
    let connectors: Vec<_> = connectors(market, settings, native)
        .into_iter()
        .filter(|t| *t != token_in && *t != token_out)
        .collect();
    let gas_price = request.gas_price_wei.unwrap_or(U256::ZERO);
    let pricer = pricers.get_or_price(token_in, token_out, gas_price, || {
        GasPricer::through_market(market, native, token_out, gas_price, &connectors, &deadline)
    });

    let mut cache = SwapCache::default();
    let query = Query { token_in, token_out, max_hops, dexes };
    let listed = enumerate::enumerate(market, &query, depths);
    let discovered = discovery::discover(market, &query, amount_in, &mut cache, &deadline);
    let key = |p: &Path| p.hops.iter().map(|h| h.pool).collect::<Vec<_>>();
    let mut seen: std::collections::HashSet<Vec<u32>> = listed.iter().map(key).collect();
    let mut joined: Vec<Path> = discovered.into_iter().filter(|p| seen.insert(key(p))).collect();
    joined.extend(listed);
    let candidate_paths = joined.len();
    if joined.is_empty() {
        return Err(SolverError::no_route(format!(
            "no path from {} to {} within {max_hops} hops",
            request.token_in, request.token_out
        )));
    }

    // Every path at the whole amount: those that take it, by output net of gas, then the rest.
    let mut filled: Vec<(usize, Net)> = Vec::new();
    let mut unfilled: Vec<usize> = Vec::new();
    for (i, path) in joined.iter().enumerate() {
        if deadline.expired() {
            break;
        }
        match cache.path(market, path, amount_in) {
            Some((out, gas)) => filled.push((i, Net::new(out, pricer.cost(gas)))),
            None => unfilled.push(i),
        }
    }
    filled.sort_by_key(|f| Reverse(f.1));
    let order: Vec<usize> = filled.iter().map(|(i, _)| *i).chain(unfilled).collect();
    let mut slots: Vec<Option<Path>> = joined.into_iter().map(Some).collect();
    let paths: Vec<Path> =
        order.iter().map(|&i| slots[i].take().expect("each path once")).collect();
    let solve = Solve { market, paths, amount_in, pricer, deadline: &deadline };

    let best_single = (!filled.is_empty()).then(|| candidate::single(&solve, 0)).flatten();
    let split = request.split_enabled.unwrap_or(true);
    let mut candidates: Vec<Candidate> = Vec::new();
    if split {
        candidates.extend(disjoint_candidates(&solve, &mut cache));
        if !request.enforce_pool_disjoint.unwrap_or(false) {
            candidates.extend(fill_and_spill(&solve, &mut cache));
        }
    }
    // A split must strictly beat the single path; with no single path the best split wins.
    let mut best: Option<Candidate> = None;
    for candidate in candidates {
        let net = candidate.net(&solve);
        let beats = match (&best, &best_single) {
            (Some(current), _) => net > current.net(&solve),
            (None, Some(single)) => net > single.net(&solve),
            (None, None) => true,
        };
        if beats {
            best = Some(candidate);
        }
    }
    let winner = best.or(best_single).ok_or_else(|| {
        SolverError::no_route(format!(
            "no path or split from {} to {} can absorb amountIn {amount_in}",
            request.token_in, request.token_out
        ))
    })?;
    answer::answer(&solve, &winner, candidate_paths, request.slippage_bps)
}

/// Greedily, the best paths by whole-amount output that share no pool with a better one, up to
/// [`MAX_PATHS`] (indices into the solve's paths).
fn select_disjoint(solve: &Solve) -> Vec<usize> {
    let mut used = std::collections::HashSet::new();
    let mut selected = Vec::new();
    for (i, path) in solve.paths.iter().enumerate() {
        if path.hops.iter().any(|h| used.contains(&h.pool)) {
            continue;
        }
        used.extend(path.hops.iter().map(|h| h.pool));
        selected.push(i);
        if selected.len() >= MAX_PATHS {
            break;
        }
    }
    selected
}

/// The coarse 20-chunk disjoint split and its 256-chunk refinement over the paths it used.
fn disjoint_candidates(solve: &Solve, cache: &mut SwapCache) -> Vec<Candidate> {
    let subset = select_disjoint(solve);
    if subset.len() < 2 {
        return Vec::new();
    }
    let Some(coarse) = fill::disjoint(solve, &subset, COARSE_CHUNKS, true) else {
        return Vec::new();
    };
    let mut out: Vec<Candidate> =
        candidate::disjoint(solve, Strategy::CoarseDisjoint, &subset, &coarse)
            .into_iter()
            .collect();
    let active: Vec<usize> =
        subset.iter().zip(&coarse).filter(|(_, a)| !a.is_zero()).map(|(p, _)| *p).collect();
    if !active.is_empty() {
        if let Some(fine) = fill::disjoint(solve, &active, FINE_CHUNKS, false) {
            let refined = exchange::refine(solve, cache, &active, FINE_CHUNKS, fine);
            out.extend(candidate::disjoint(solve, Strategy::RefinedDisjoint, &active, &refined));
        }
    }
    out
}

/// Fill-and-spill's paths: the best [`SHARED_FULL_PATHS`] at the whole amount, then the best
/// first-chunk outputs net of gas among the first [`SHARED_MARGIN_PROBE_PATHS`] (a path that ranks
/// poorly at full size but wins on the margin is what makes a tree reachable).
fn shared_candidates(solve: &Solve, cache: &mut SwapCache) -> Vec<usize> {
    let mut chosen: Vec<usize> = (0..solve.paths.len().min(SHARED_FULL_PATHS)).collect();
    let first_chunk = solve.amount_in.checked_div(U256::from(COARSE_CHUNKS)).unwrap_or(U256::ZERO);
    if first_chunk.is_zero() {
        return chosen;
    }
    let mut margins: Vec<(usize, Net)> = Vec::new();
    for (i, path) in solve.paths.iter().enumerate().take(SHARED_MARGIN_PROBE_PATHS) {
        if solve.deadline.expired() {
            break;
        }
        if let Some((out, gas)) = cache.path(solve.market, path, first_chunk) {
            margins.push((i, Net::new(out, solve.pricer.cost(gas))));
        }
    }
    margins.sort_by_key(|m| Reverse(m.1));
    for (i, net) in margins.into_iter().take(SHARED_MARGIN_PATHS) {
        if net <= Net::ZERO {
            continue;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
        if chosen.len() >= SHARED_MAX_CANDIDATES {
            break;
        }
    }
    chosen
}

/// Fill-and-spill: a gated coarse pour picks the paths (those that took a chunk), an ungated fine
/// pour over them allocates, and the result runs as a tree.
fn fill_and_spill(solve: &Solve, cache: &mut SwapCache) -> Option<Candidate> {
    let paths = shared_candidates(solve, cache);
    if paths.len() < 2 {
        return None;
    }
    let coarse = fill::shared(solve, &paths, COARSE_CHUNKS, true)?;
    let active: Vec<usize> = paths
        .iter()
        .enumerate()
        .filter(|(i, _)| coarse.iter().any(|(c, _)| c == i))
        .map(|(_, p)| *p)
        .collect();
    if active.len() < 2 {
        return None;
    }
    let schedule = fill::shared(solve, &active, FINE_CHUNKS, false)?;
    if schedule.is_empty() {
        return None;
    }
    candidate::shared(solve, &active, &schedule)
}
