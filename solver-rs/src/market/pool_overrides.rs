//! A quote's own states of a few pools, on top of the shared market: today DODO_V2's maintainer
//! rate, which the pools charge per trader (`tx.origin`, docs/dex-kinds.md "DODO_V2"). The market
//! carries the anonymous trader's rate; a request naming its sender's rate for some pools is solved
//! on a view of the market with those pools replaced ([`Market::with_pools_replaced`]), for that
//! request alone. The market itself never changes, and a view costs the pools it replaces.

use super::{Market, PoolEntry, PoolIdx};
use crate::address::normalize_pool_id;
use crate::dex::DexId;
use crate::error::SolverError;
use crate::math::decimal::u256_string;
use crate::math::U256;
use crate::pools::PoolState;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The request field the overrides arrive in (errors name it).
pub const FIELD: &str = "poolOverrides";

/// 10^18: a rate of one (the pools' fixed point), the most a maintainer rate can be.
const ONE: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

/// One pool's state for one request: `{"poolId", "mtFeeRate"}`, the maintainer rate (18 decimals)
/// the pool's fee-rate model gives the request's sender.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PoolOverride {
    pub pool_id: String,
    #[serde(with = "u256_string")]
    pub mt_fee_rate: U256,
}

/// Overridden pool states of one market snapshot, by slot and rate, so that requests of one
/// sender (or of senders at one rate) share the states and the bound curves built on them
/// (`pools/curve_memo.rs`: a DODO pool's costs about 1 ms a direction). Bounded: at
/// [`MAX_OVERRIDDEN_STATES`] it starts over, so no client can grow it. The owner drops it with
/// the snapshot.
#[derive(Debug, Default)]
pub struct OverriddenPools {
    entries: Mutex<HashMap<(PoolIdx, U256), Arc<PoolEntry>>>,
}

/// The most overridden states [`OverriddenPools`] keeps (a few DODO pools at a few rates).
pub const MAX_OVERRIDDEN_STATES: usize = 256;

impl OverriddenPools {
    /// The state of `slot` (a DODO pool of `market`) at maintainer rate `rate`, remembered.
    fn at_rate(&self, market: &Market, slot: PoolIdx, rate: U256) -> Arc<PoolEntry> {
        let key = (slot, rate);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = entries.get(&key) {
            return Arc::clone(entry);
        }
        let mut entry = market.pool(slot).clone();
        if let PoolState::Dodo(pool) = &mut entry.state {
            // A copy starts with an empty curve memo: the curves of the new rate are its own.
            pool.mt_fee_rate = rate;
        }
        let entry = Arc::new(entry);
        if entries.len() >= MAX_OVERRIDDEN_STATES {
            entries.clear();
        }
        entries.insert(key, Arc::clone(&entry));
        entry
    }

    /// How many states are remembered (for the tests of the bound).
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The market a request with `overrides` is solved on, and the ids of the pools whose state
/// differs from the market's (sorted). Each override must name a live DODO_V2 pool once, with a
/// rate of at most one (10^18); an override at the market's own rate replaces nothing. Checks and
/// replaces only the overridden pools: its cost does not grow with the market.
pub fn market_with_overrides(
    market: &Market,
    overrides: &[PoolOverride],
    memo: &OverriddenPools,
) -> Result<(Market, Vec<String>), SolverError> {
    let bad = |reason: String| SolverError::invalid(FIELD, reason);
    let mut seen: Vec<PoolIdx> = Vec::with_capacity(overrides.len());
    let mut replaced = Vec::new();
    let mut ids = Vec::new();
    for PoolOverride { pool_id, mt_fee_rate } in overrides {
        let id = normalize_pool_id(pool_id).map_err(|e| bad(e.reason()))?;
        let slot = market.pool_by_id(&id).ok_or_else(|| bad(format!("unknown pool {id}")))?;
        if seen.contains(&slot) {
            return Err(bad(format!("pool {id} is overridden twice")));
        }
        seen.push(slot);
        let entry = market.pool(slot);
        let PoolState::Dodo(pool) = &entry.state else {
            return Err(bad(format!(
                "pool {id} is a {} pool: only DODO_V2 pools take a maintainer rate",
                entry.dex
            )));
        };
        debug_assert_eq!(entry.dex, DexId::DodoV2);
        if *mt_fee_rate > ONE {
            return Err(bad(format!(
                "pool {id}: mtFeeRate {mt_fee_rate} is above one (10^18, the pools' fixed point)"
            )));
        }
        if pool.mt_fee_rate != *mt_fee_rate {
            replaced.push((slot, memo.at_rate(market, slot, *mt_fee_rate)));
            ids.push(id);
        }
    }
    ids.sort();
    let view =
        if replaced.is_empty() { market.clone() } else { market.with_pools_replaced(replaced) };
    Ok((view, ids))
}

#[cfg(test)]
#[path = "pool_overrides_tests.rs"]
mod tests;
