//! The solver instance: a market plus routing settings, driven by JSON from either backend.

use crate::address::{normalize_pool_id, Address};
use crate::error::{parse_json, SolverError};
use crate::market::pool_overrides::{market_with_overrides, OverriddenPools, PoolOverride};
use crate::market::{Market, Rejected};
use crate::math::decimal::u256_string;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::pools::{PoolModel, SwapOutcome};
use crate::route::bound_memos::BoundMemos;
use crate::route::clock::MonotonicClock;
use crate::route::gas::GasPricers;
use crate::route::plan::Plan;
use crate::route::quote::{quote_after_wait, RouteSettings};
use crate::route::request::{QuoteRequest, TIME_BUDGET_MS};
#[cfg(feature = "reference")]
use crate::route::waterfill::{waterfill, Depths};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Construction options (see `docs/solver-wire-format.md`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SolverConfig {
    pub native_token: Address,
    pub connectors: Option<Vec<Address>>,
    pub default_time_budget_ms: Option<u32>,
    pub max_candidates: Option<usize>,
    pub pools_per_edge: Option<usize>,
}

/// Default optimizer budget: generous next to a converged solve (well under a millisecond on a
/// thousand pools), so the budget only bites on huge markets or deep searches.
pub const DEFAULT_TIME_BUDGET_MS: u32 = 50;
const DEFAULT_MAX_CANDIDATES: usize = 8;
const DEFAULT_BEAM: usize = 3;
const DEFAULT_CONNECTOR_COUNT: usize = 8;

/// A market and the settings to route on it.
///
/// The market is an immutable snapshot: an update builds the next one and swaps it in whole
/// ([`Solver::update_market`]). A clone of the solver is a cheap view of the snapshot it was taken
/// from (shared, not copied): a quote runs on such a view without holding any lock the next update
/// needs, and sees one block whole whatever is swapped in meanwhile.
#[derive(Clone, Debug)]
pub struct Solver {
    market: Arc<Market>,
    settings: RouteSettings,
    /// Gas pricers of quotes on this snapshot; a new snapshot gets its own.
    pricers: Arc<GasPricers>,
    /// The convex bound's answers of split quotes on this snapshot, per trade; a new snapshot gets
    /// its own.
    bounds: Arc<BoundMemos>,
    /// The pool states requests' overrides made on this snapshot (`market/pool_overrides.rs`); a
    /// new snapshot gets its own.
    overridden: Arc<OverriddenPools>,
    /// Pool depths of the water-filling reference on this snapshot; a new snapshot gets its own.
    #[cfg(feature = "reference")]
    depths: Arc<Depths>,
    /// The block every pool of the market was read at, set by [`Solver::apply_block_json`]; None
    /// once pools were changed without a block (`upsertPools`, `removePools`), so a plan never
    /// names a block its pools were not read at.
    block_number: Option<u64>,
}

/// One block's changes to the market, applied at once (see `docs/solver-wire-format.md`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BlockUpdate {
    block_number: u64,
    #[serde(default)]
    upserts: Vec<PoolInput>,
    #[serde(default)]
    removals: Vec<String>,
    /// The L1 data fee of one leg's calldata, in L2 gas units at the block's gas price (absent: 0);
    /// added to every leg's gas ([`Market::set_leg_overhead_gas`]).
    #[serde(default)]
    l1_gas_per_leg: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BlockResult {
    /// Live pools after the update.
    pools: usize,
    /// Inputs refused (and removed from the market), with why.
    rejected: Vec<Rejected>,
}

/// A quote's answer: the plan, and the block of the market it was computed on.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct QuoteAnswer {
    #[serde(flatten)]
    plan: Plan,
    block_number: Option<u64>,
    /// The per-leg L1 gas the plan's `gasUnits` include (legs × this), so the caller can tell L2
    /// execution gas from the L1 fee's share.
    l1_gas_per_leg: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SimulateRequest {
    pool_id: String,
    token_in: Address,
    /// Needed only for a venue of more than two tokens (a two-token pool's is the other one).
    #[serde(default)]
    token_out: Option<Address>,
    #[serde(with = "u256_string")]
    amount_in: U256,
    /// As a quote's (`market/pool_overrides.rs`): the swap on the pool at this sender's rate.
    #[serde(default)]
    pool_overrides: Option<Vec<PoolOverride>>,
    /// Swaps earlier legs of the same transaction make on this pool, in order: applied to its state
    /// first, so the swap is priced where they leave the pool (a pool two legs of a plan trade).
    #[serde(default)]
    prior_swaps: Vec<PriorSwap>,
}

/// One earlier swap on a simulated pool ([`SimulateRequest::prior_swaps`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PriorSwap {
    token_in: Address,
    #[serde(default)]
    token_out: Option<Address>,
    #[serde(with = "u256_string")]
    amount_in: U256,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SimulateResult {
    #[serde(with = "u256_string")]
    amount_out: U256,
    crossings: u32,
    words: u32,
    gas_units: u64,
    repeat_gas_saving: u64,
}

#[derive(Serialize)]
struct CountResult {
    pools: usize,
}

impl Solver {
    /// Builds a solver from its JSON config.
    pub fn from_config_json(config: &str) -> Result<Solver, SolverError> {
        let config: SolverConfig = parse_json("config", config)?;
        let budget = config.default_time_budget_ms.unwrap_or(DEFAULT_TIME_BUDGET_MS);
        if !TIME_BUDGET_MS.contains(&budget) {
            return Err(SolverError::invalid(
                "defaultTimeBudgetMs",
                format!("{budget} is outside 1..=10000"),
            ));
        }
        let max_candidates = config.max_candidates.unwrap_or(DEFAULT_MAX_CANDIDATES);
        let beam = config.pools_per_edge.unwrap_or(DEFAULT_BEAM);
        if !(1..=64).contains(&max_candidates) || !(1..=64).contains(&beam) {
            return Err(SolverError::invalid(
                "maxCandidates",
                "maxCandidates and poolsPerEdge must be within 1..=64",
            ));
        }
        Ok(Solver {
            market: Arc::new(Market::default()),
            pricers: Arc::new(GasPricers::default()),
            bounds: Arc::new(BoundMemos::default()),
            overridden: Arc::new(OverriddenPools::default()),
            #[cfg(feature = "reference")]
            depths: Arc::new(Depths::default()),
            block_number: None,
            settings: RouteSettings {
                native_token: Some(config.native_token),
                connectors: config.connectors,
                default_connector_count: DEFAULT_CONNECTOR_COUNT,
                default_time_budget_ms: budget,
                max_candidates,
                beam,
            },
        })
    }

    /// Applies one block's changes as one step, `{"blockNumber", "upserts", "removals"}`: no quote
    /// sees a market half updated, and every later plan names this block. A refused pool input does
    /// not refuse the block: that pool leaves the market and is listed in the answer,
    /// `{"pools": <live count>, "rejected": [{"id", "reason"}]}`.
    pub fn apply_block_json(&mut self, update: &str) -> Result<String, SolverError> {
        let update: BlockUpdate = parse_json("update", update)?;
        if update.l1_gas_per_leg > Market::MAX_LEG_OVERHEAD_GAS {
            return Err(SolverError::invalid(
                "l1GasPerLeg",
                format!(
                    "l1GasPerLeg {} is above the most a leg's L1 fee can be, {} gas units (2^48)",
                    update.l1_gas_per_leg,
                    Market::MAX_LEG_OVERHEAD_GAS
                ),
            ));
        }
        let rejected = self.update_market(|market| {
            market.set_leg_overhead_gas(update.l1_gas_per_leg);
            market.apply(update.upserts, &update.removals)
        })?;
        self.block_number = Some(update.block_number);
        Ok(serde_json::to_string(&BlockResult { pools: self.market.pool_count(), rejected })?)
    }

    /// Upserts a JSON array of pools, all or nothing; answers `{"pools": <count upserted>}`. The
    /// market then has no block (plans answer `blockNumber: null`) until the next block update.
    pub fn upsert_pools_json(&mut self, pools: &str) -> Result<String, SolverError> {
        let pools: Vec<PoolInput> = parse_json("pools", pools)?;
        let count = self.update_market(|market| market.upsert(pools))?;
        self.block_number = None;
        Ok(serde_json::to_string(&CountResult { pools: count })?)
    }

    /// Removes a JSON array of pool ids; answers `{"pools": <count removed>}`. Like
    /// [`Solver::upsert_pools_json`], it leaves the market without a block.
    pub fn remove_pools_json(&mut self, ids: &str) -> Result<String, SolverError> {
        let ids: Vec<String> = parse_json("ids", ids)?;
        let count = self.update_market(|market| market.remove(&ids))?;
        self.block_number = None;
        Ok(serde_json::to_string(&CountResult { pools: count })?)
    }

    /// Runs `update` on a copy of the market and swaps the copy in only once it has finished: an
    /// update refused midway, or one that panics (the bindings catch the panic and recover the
    /// lock as it is), leaves the market of the last complete update serving quotes, never a half
    /// updated one; and views taken before keep the snapshot they were taken from. The copy costs
    /// a clone of the market per update (docs/solver-wire-format.md).
    fn update_market<T>(
        &mut self,
        update: impl FnOnce(&mut Market) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        let mut next = Market::clone(&self.market);
        let result = update(&mut next)?;
        self.market = Arc::new(next);
        self.pricers = Arc::new(GasPricers::default());
        self.bounds = Arc::new(BoundMemos::default());
        self.overridden = Arc::new(OverriddenPools::default());
        #[cfg(feature = "reference")]
        {
            self.depths = Arc::new(Depths::default());
        }
        Ok(result)
    }

    /// Quotes a JSON request; answers the plan as JSON, with the `blockNumber` of the market it was
    /// computed on (read in the same call, so no update can slip between the two).
    pub fn quote_json(&self, request: &str) -> Result<String, SolverError> {
        self.quote_json_after_wait(request, 0.0)
    }

    /// [`Solver::quote_json`] for a call made `waited_ms` ago that waited in a queue until now:
    /// its `timeBudgetMs` runs from when it was made (`route::quote::quote_after_wait`).
    pub fn quote_json_after_wait(
        &self,
        request: &str,
        waited_ms: f64,
    ) -> Result<String, SolverError> {
        let request: QuoteRequest = parse_json("request", request)?;
        let market = self.market_for(request.pool_overrides.as_deref())?;
        // A request's overridden pools are its own market: its bound is its own.
        let own_bounds = BoundMemos::default();
        let bounds = match request.pool_overrides.as_deref() {
            None | Some([]) => &self.bounds,
            Some(_) => &own_bounds,
        };
        let plan = quote_after_wait(
            &market,
            &self.settings,
            &request,
            &self.pricers,
            bounds,
            &MonotonicClock,
            waited_ms,
        )?;
        Ok(serde_json::to_string(&QuoteAnswer {
            plan,
            block_number: self.block_number,
            l1_gas_per_leg: self.market.leg_overhead_gas(),
        })?)
    }

    /// Routes a JSON quote request the way Fynd's water-filling does, over the same pools a quote's
    /// bound covers, every swap exact on our models (`route/waterfill`): the reference the quality
    /// benchmark and tests compare our plans with. Answers the tree it executes as JSON.
    /// Only in builds with the `reference` feature (the tests' and benches'); without it the
    /// bindings answer that it is not built (`ffi::waterfill_json`).
    #[cfg(feature = "reference")]
    pub fn waterfill_json(&self, request: &str) -> Result<String, SolverError> {
        let request: QuoteRequest = parse_json("request", request)?;
        if request.pool_overrides.is_some() {
            // Its pool depths are cached per snapshot from the market's own states.
            return Err(SolverError::invalid(
                "poolOverrides",
                "the water-filling reference routes the market's own states: send no poolOverrides",
            ));
        }
        let plan = waterfill(
            &self.market,
            &self.settings,
            &request,
            &self.pricers,
            &self.depths,
            &MonotonicClock,
        )?;
        Ok(serde_json::to_string(&plan)?)
    }

    /// One exact-input swap on one pool, without changing the market.
    pub fn simulate_json(&self, request: &str) -> Result<String, SolverError> {
        let request: SimulateRequest = parse_json("request", request)?;
        let market = self.market_for(request.pool_overrides.as_deref())?;
        let id = normalize_pool_id(&request.pool_id)?;
        let slot = market
            .pool_by_id(&id)
            .ok_or_else(|| SolverError::invalid("poolId", format!("unknown pool {id}")))?;
        let pool = market.pool(slot);
        let position = |field: &str, token: &Address| {
            market.token(token).and_then(|t| pool.tokens.iter().position(|p| *p == t)).ok_or_else(
                || SolverError::invalid(field, format!("pool {id} does not hold {token}")),
            )
        };
        let pair = |token_in: &Address, token_out: &Option<Address>| {
            let token_in = position("tokenIn", token_in)?;
            let token_out = match token_out {
                Some(token) => position("tokenOut", token)?,
                None if pool.tokens.len() == 2 => usize::from(token_in == 0),
                None => {
                    return Err(SolverError::invalid(
                        "tokenOut",
                        format!("pool {id} holds {} tokens: name the one out", pool.tokens.len()),
                    ))
                }
            };
            Ok((token_in, token_out))
        };
        let mut state = std::borrow::Cow::Borrowed(&pool.state);
        for prior in &request.prior_swaps {
            let (i, o) = pair(&prior.token_in, &prior.token_out)?;
            let (_, next) = state
                .apply(i, o, prior.amount_in)
                .map_err(|e| SolverError::no_route(format!("pool {id}, a prior swap: {e}")))?;
            state = std::borrow::Cow::Owned(next);
        }
        let (token_in, token_out) = pair(&request.token_in, &request.token_out)?;
        let outcome = state
            .amount_out(token_in, token_out, request.amount_in)
            .map_err(|e| SolverError::no_route(format!("pool {id}: {e}")))?;
        // The leg's own L2 gas: the market's per-leg L1 overhead is a routing cost, not execution gas.
        let gas_units = pool.spec.leg_gas_units(&outcome) - market.leg_overhead_gas();
        let repeat_gas_saving = pool.spec.repeat_saving(&outcome);
        let SwapOutcome { amount_out, crossings, words } = outcome;
        Ok(serde_json::to_string(&SimulateResult {
            amount_out,
            crossings,
            words,
            gas_units,
            repeat_gas_saving,
        })?)
    }

    /// The market a request is priced on: the snapshot, or a view of it with the request's pool
    /// overrides (validated; `market/pool_overrides.rs`), which no other request sees.
    fn market_for(&self, overrides: Option<&[PoolOverride]>) -> Result<Market, SolverError> {
        match overrides {
            None | Some([]) => Ok(Market::clone(&self.market)),
            Some(overrides) => {
                market_with_overrides(&self.market, overrides, &self.overridden).map(|(m, _)| m)
            }
        }
    }

    /// The block the market was read at (None: pools changed without a block, or none yet).
    pub fn block_number(&self) -> Option<u64> {
        self.block_number
    }

    /// Number of live pools.
    pub fn pool_count(&self) -> usize {
        self.market.pool_count()
    }

    /// The market, read-only (for tools that study it: `examples/stranding_bound.rs`).
    pub fn market(&self) -> &Market {
        &self.market
    }

    /// The routing settings, read-only (for tools that quote with a clock of their own:
    /// `examples/quote_profile.rs`, `cpu-clock`).
    pub fn settings(&self) -> &RouteSettings {
        &self.settings
    }
}
