//! Pool states as the water-filling passes see them: the market, with the swaps a pass has
//! committed on top, and the exact swap of one path on that view.

use crate::market::{Hop, Market, PoolIdx};
use crate::math::U256;
use crate::pools::{PoolModel, PoolState};
use crate::route::path::{run_hops, Path};
use std::collections::HashMap;

/// The market with a pass's committed swaps applied (Fynd's "overrides").
#[derive(Default)]
pub struct View {
    states: HashMap<PoolIdx, PoolState>,
}

impl View {
    /// The pool's state in this view.
    pub fn state<'a>(&'a self, market: &'a Market, pool: PoolIdx) -> &'a PoolState {
        self.states.get(&pool).unwrap_or(&market.pool(pool).state)
    }

    /// Keeps the states a step left behind.
    pub fn commit(&mut self, states: Vec<(PoolIdx, PoolState)>) {
        self.states.extend(states);
    }
}

/// One path swapped on a view, not yet committed: its output (raw tokenOut), gas units, and the
/// states of its pools after it.
pub struct Step {
    pub out: U256,
    pub gas: u64,
    pub states: Vec<(PoolIdx, PoolState)>,
}

impl Step {
    /// Whether the step moved `pool`.
    pub fn moves(&self, pool: PoolIdx) -> bool {
        self.states.iter().any(|(p, _)| *p == pool)
    }
}

/// One exact swap through `hop` on `state`: its output, gas units and the state after it. Every
/// swap of the water-filling goes through `apply`, as the final replay does, so a swap it accepts
/// is one the replay can make.
pub fn swap(
    market: &Market,
    state: &PoolState,
    hop: Hop,
    amount: U256,
) -> Option<(U256, u64, PoolState)> {
    let (outcome, next) =
        state.apply(hop.token_in as usize, hop.token_out as usize, amount).ok()?;
    let gas = market.pool(hop.pool).spec.leg_gas_units(&outcome);
    Some((outcome.amount_out, gas, next))
}

/// Swaps `amount` along `path` on `view` without committing it. None when a pool refuses.
pub fn step(market: &Market, view: &View, path: &Path, amount: U256) -> Option<Step> {
    let mut states: Vec<(PoolIdx, PoolState)> = Vec::with_capacity(path.hops.len());
    let (out, gas) = run_hops(&path.hops, amount, |hop, amount| {
        let (out, leg_gas, next) = {
            let state = states
                .iter()
                .rev()
                .find(|(p, _)| *p == hop.pool)
                .map_or_else(|| view.state(market, hop.pool), |(_, s)| s);
            swap(market, state, hop, amount).ok_or(())?
        };
        states.push((hop.pool, next));
        Ok::<_, ()>((out, leg_gas))
    })
    .ok()?;
    Some(Step { out, gas, states })
}
