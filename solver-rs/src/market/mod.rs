//! The market the solver owns: tokens, pools and the directed edges between tokens.
//! TypeScript upserts only the pools that changed in a block; quotes read it in place.

use crate::address::{normalize_pool_id, Address};
use crate::dex::DexId;
use crate::error::SolverError;
use crate::pools::input::{decode_state, PoolInput};
use crate::pools::registry::{spec, DexSpec};
use crate::pools::PoolState;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub mod pool_overrides;

/// A pool input [`Market::apply`] refused, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub id: String,
    pub reason: String,
}

/// A pool input checked and decoded, ready to insert.
struct Decoded {
    id: String,
    dex: DexId,
    tokens: Vec<Address>,
    state: PoolState,
    /// The id of a pool whose state this venue holds inside it (a Curve meta pool's base pool).
    holds: Option<String>,
}

/// The fewest and most tokens a venue may hold: two-token pools, and Curve's pools of up to four.
pub const VENUE_TOKENS: std::ops::RangeInclusive<usize> = 2..=4;

/// Checks and decodes one pool input: 2 to 4 distinct tokens, as many as its state prices.
fn decode(input: PoolInput) -> Result<Decoded, SolverError> {
    let id = normalize_pool_id(&input.id)?;
    if !VENUE_TOKENS.contains(&input.tokens.len()) {
        return Err(SolverError::invalid(
            format!("pool {id}"),
            format!("expected 2 to 4 tokens, got {}", input.tokens.len()),
        ));
    }
    let tokens = input
        .tokens
        .iter()
        .map(|t| {
            Address::parse(t).map_err(|e| SolverError::invalid(format!("pool {id}"), e.reason()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for (k, token) in tokens.iter().enumerate() {
        if tokens[..k].contains(token) {
            return Err(SolverError::invalid(format!("pool {id}"), format!("holds {token} twice")));
        }
    }
    let holds = input.state.holds_pool().map(normalize_pool_id).transpose()?;
    if holds.as_ref() == Some(&id) {
        return Err(SolverError::invalid(format!("pool {id}"), "holds itself as its base pool"));
    }
    let state = decode_state(input.dex, input.state).map_err(|e| SolverError::of_pool(&id, e))?;
    if state.token_count() != tokens.len() {
        return Err(SolverError::invalid(
            format!("pool {id}"),
            format!("{} tokens listed, its state prices {}", tokens.len(), state.token_count()),
        ));
    }
    Ok(Decoded { id, dex: input.dex, tokens, state, holds })
}

/// Index of a token in [`Tables::tokens`].
pub type TokenIdx = u32;
/// Index of a pool slot in the market.
pub type PoolIdx = u32;

/// One pool of the market.
#[derive(Clone, Debug)]
pub struct PoolEntry {
    /// Normalised (lowercase) id: address or bytes32 pool id.
    pub id: String,
    pub dex: DexId,
    pub spec: DexSpec,
    /// The pool's tokens in its own order.
    pub tokens: Vec<TokenIdx>,
    pub state: PoolState,
}

/// One way through one pool: `token_in`/`token_out` are positions in the pool's token list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub pool: PoolIdx,
    pub token_in: u8,
    pub token_out: u8,
}

/// Tokens, pools and directed edges. Iteration orders are deterministic (edges are kept sorted by
/// pool id), so two backends fed the same updates answer the same quotes byte for byte.
///
/// The tables are shared between copies ([`Arc`]): a copy costs a pointer until it is changed
/// (then the tables are copied once, as a market update always did), so a quote's view with a few
/// pools replaced ([`Market::with_pools_replaced`]) costs those pools, not the market.
#[derive(Clone, Debug, Default)]
pub struct Market {
    tables: Arc<Tables>,
    /// Pools a view replaces, by slot ascending; empty in the market the solver owns.
    replaced: Arc<[(PoolIdx, Arc<PoolEntry>)]>,
}

#[derive(Clone, Debug, Default)]
struct Tables {
    tokens: Vec<Address>,
    token_index: HashMap<Address, TokenIdx>,
    /// Shared between copies: an update copies the tables but the pools it does not change stay
    /// the same entries, their states' memos (the bound curves, `pools/curve_memo.rs`) with them.
    /// A copied state starts with empty memos, so copying every pool on every block made each
    /// block's first quote build every E-CLP's and DODO pool's curves again.
    pools: Vec<Option<Arc<PoolEntry>>>,
    free_slots: Vec<PoolIdx>,
    pool_index: HashMap<String, PoolIdx>,
    edges: HashMap<(TokenIdx, TokenIdx), Vec<Hop>>,
    /// Per token, the tokens it shares a pool with, ascending by address (the routing graph walks these).
    neighbours: Vec<Vec<TokenIdx>>,
    pools_per_token: Vec<u32>,
    /// Gas units added to every leg's base gas ([`Market::set_leg_overhead_gas`]).
    leg_overhead_gas: u64,
    /// Pools whose state a live venue holds inside it (a Curve meta pool's base pool), by id, to
    /// that venue's id ([`Tables::shared_state_refusals`]).
    held: HashMap<String, String>,
}

impl Tables {
    /// Number of live pools.
    pub fn pool_count(&self) -> usize {
        self.pool_index.len()
    }

    /// The address of a token index.
    pub fn token_address(&self, token: TokenIdx) -> Address {
        self.tokens[token as usize]
    }

    /// The index of a known token.
    pub fn token(&self, address: &Address) -> Option<TokenIdx> {
        self.token_index.get(address).copied()
    }

    /// A live pool. Panics only on an index the market never handed out (a solver bug).
    pub fn pool(&self, pool: PoolIdx) -> &PoolEntry {
        self.pools[pool as usize].as_deref().expect("live pool index")
    }

    /// The pool with this id, if live.
    pub fn pool_by_id(&self, id: &str) -> Option<PoolIdx> {
        self.pool_index.get(&id.to_ascii_lowercase()).copied()
    }

    /// Every way from `from` to `to` through one pool, sorted by pool id.
    pub fn edge(&self, from: TokenIdx, to: TokenIdx) -> &[Hop] {
        self.edges.get(&(from, to)).map_or(&[], Vec::as_slice)
    }

    /// The tokens that share at least one pool with `token`, ascending by address (so the walk
    /// does not depend on the order pools were added in).
    pub fn neighbours(&self, token: TokenIdx) -> &[TokenIdx] {
        self.neighbours.get(token as usize).map_or(&[], Vec::as_slice)
    }

    /// The `count` tokens most pools hold, in that order (most first, ties by address).
    pub fn best_connected_tokens(&self, count: usize) -> Vec<TokenIdx> {
        let mut order: Vec<TokenIdx> = (0..self.tokens.len() as TokenIdx)
            .filter(|t| self.pools_per_token[*t as usize] > 0)
            .collect();
        let ranks = |a: &TokenIdx, b: &TokenIdx| {
            let (pa, pb) = (self.pools_per_token[*a as usize], self.pools_per_token[*b as usize]);
            pb.cmp(&pa).then_with(|| self.tokens[*a as usize].cmp(&self.tokens[*b as usize]))
        };
        // Every quote asks for a few of the market's tokens: the first `count` are selected (linear
        // time) and only they are sorted, not every token the market holds (a whole sort was 6 %
        // of a 10,000-pool split quote). The order is total (addresses differ), so the same tokens.
        if count < order.len() {
            order.select_nth_unstable_by(count, ranks);
            order.truncate(count);
        }
        order.sort_by(ranks);
        order
    }

    /// Inserts or replaces pools, all or nothing: one invalid pool refuses the whole batch.
    pub fn upsert(&mut self, inputs: Vec<PoolInput>) -> Result<usize, SolverError> {
        let mut decoded = Vec::with_capacity(inputs.len());
        let mut seen = HashSet::new();
        for input in inputs {
            let pool = decode(input)?;
            if !seen.insert(pool.id.clone()) {
                return Err(SolverError::invalid(
                    format!("pool {}", pool.id),
                    "appears twice in one upsert",
                ));
            }
            decoded.push(pool);
        }
        if let Some(refused) = self.shared_state_refusals(&decoded, &[]).into_iter().next() {
            return Err(SolverError::invalid(format!("pool {}", refused.id), refused.reason));
        }
        let count = decoded.len();
        for pool in decoded {
            self.insert(pool);
        }
        Ok(count)
    }

    /// Applies one block's changes: every valid pool of `inputs` is inserted or replaced, every id of
    /// `removals` goes (a removal wins over an upsert of the same id), and a pool whose input is refused goes too (its old state is no longer the
    /// state at this block). Returns the refused inputs with why, by id (or by position when the id
    /// itself is unreadable).
    pub fn apply(
        &mut self,
        inputs: Vec<PoolInput>,
        removals: &[String],
    ) -> Result<Vec<Rejected>, SolverError> {
        let removals =
            removals.iter().map(|id| normalize_pool_id(id)).collect::<Result<Vec<_>, _>>()?;
        let mut rejected = Vec::new();
        let mut decoded = Vec::with_capacity(inputs.len());
        let mut seen = HashSet::new();
        for (position, input) in inputs.into_iter().enumerate() {
            let id = normalize_pool_id(&input.id).unwrap_or_else(|_| format!("#{position}"));
            match decode(input) {
                Ok(pool) if seen.insert(pool.id.clone()) => decoded.push(pool),
                Ok(pool) => rejected
                    .push(Rejected { id: pool.id, reason: "appears twice in one block".into() }),
                Err(error) => rejected.push(Rejected { id, reason: error.to_string() }),
            }
        }
        // A duplicated id is refused whole: neither of its states is known to be the block's.
        decoded.retain(|pool| !rejected.iter().any(|r| r.id == pool.id));
        // A pool refused above leaves too: its old state is not the block's.
        let going: Vec<String> =
            removals.iter().cloned().chain(rejected.iter().map(|r| r.id.clone())).collect();
        let refused = self.shared_state_refusals(&decoded, &going);
        decoded.retain(|pool| !refused.iter().any(|r| r.id == pool.id));
        rejected.extend(refused);
        for pool in decoded {
            self.insert(pool);
        }
        // Removals last: a pool both upserted and removed in one block is gone.
        for id in removals.iter().chain(rejected.iter().map(|r| &r.id)) {
            if let Some(slot) = self.pool_index.get(id).copied() {
                self.unlink(slot);
            }
        }
        Ok(rejected)
    }

    /// One venue per shared state. A venue that holds another pool's state (a Curve meta pool
    /// holds its base pool's: every swap of the one moves the other's prices) is the only venue of
    /// that state: the held pool as a venue of its own would be priced and bounded apart from it,
    /// so plans through both would not be exact and the bound not certified. So, for a batch
    /// (`decoded`, in order, with the ids of `leaving` going): a venue whose held pool another
    /// venue (live, or earlier in the batch) holds already is refused; a held pool's own input is
    /// refused; and a live held pool is refused too, which takes it off the market. The holder
    /// always wins over its held pool, whatever order they arrive in.
    fn shared_state_refusals(&self, decoded: &[Decoded], leaving: &[String]) -> Vec<Rejected> {
        let upserted: HashSet<&str> = decoded.iter().map(|p| p.id.as_str()).collect();
        let mut holders: HashMap<&str, &str> = self
            .held
            .iter()
            .filter(|(_, h)| !leaving.contains(h) && !upserted.contains(h.as_str()))
            .map(|(b, h)| (b.as_str(), h.as_str()))
            .collect();
        let mut refused = Vec::new();
        for pool in decoded {
            let Some(base) = pool.holds.as_deref() else { continue };
            match holders.get(base) {
                Some(holder) => refused.push(Rejected {
                    id: pool.id.clone(),
                    reason: format!("its base pool {base} is held by venue {holder} already (one venue per shared state)"),
                }),
                None => {
                    holders.insert(base, &pool.id);
                }
            }
        }
        let inside = |id: &str, holder: &str| {
            Rejected {
            id: id.to_string(),
            reason: format!("its state is held inside venue {holder}, a meta pool over it (one venue per shared state)"),
        }
        };
        for pool in decoded {
            if let Some(holder) = holders.get(pool.id.as_str()) {
                refused.push(inside(&pool.id, holder));
            }
        }
        for (base, holder) in &holders {
            if !upserted.contains(base)
                && !leaving.iter().any(|id| id == base)
                && self.pool_index.contains_key(*base)
            {
                refused.push(inside(base, holder));
            }
        }
        refused.sort_by(|a, b| a.id.cmp(&b.id));
        refused
    }

    fn insert(&mut self, Decoded { id, dex, tokens, state, holds }: Decoded) {
        #[cfg(test)]
        injected_panic::before_insert();
        if let Some(existing) = self.pool_index.get(&id).copied() {
            self.unlink(existing);
        }
        if let Some(base) = holds {
            self.held.insert(base, id.clone());
        }
        let tokens: Vec<TokenIdx> = tokens.into_iter().map(|t| self.intern(t)).collect();
        let entry =
            Arc::new(PoolEntry { id: id.clone(), dex, spec: self.spec_of(dex), tokens, state });
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                self.pools[slot as usize] = Some(entry);
                slot
            }
            None => {
                self.pools.push(Some(entry));
                (self.pools.len() - 1) as PoolIdx
            }
        };
        self.link(slot);
        self.pool_index.insert(id, slot);
    }

    /// The registry's entry for `dex`, with this market's per-leg overhead on its base gas.
    fn spec_of(&self, dex: DexId) -> DexSpec {
        let mut entry = spec(dex);
        entry.gas_base = entry.gas_base.saturating_add(self.leg_overhead_gas);
        entry
    }

    /// The most [`Market::set_leg_overhead_gas`] takes: 2^48 gas units per leg. At an L2 gas price
    /// of 1 wei that is an L1 fee of 2.8·10^14 wei (0.00028 ETH) per leg, some 36,000 times the
    /// 2025 figure (docs/real-chain.md); and a plan's legs (at most 64 routes of 4 hops, 2^8) keep
    /// every gas sum below 2^56, far from wrapping u64 (sums saturate anyway, `total_gas`).
    pub const MAX_LEG_OVERHEAD_GAS: u64 = 1 << 48;

    /// Adds `gas` units to every leg's base gas, for every pool now and later, replacing the previous
    /// overhead: the L1 data fee of one leg's calldata on an OP-stack chain, expressed in L2 gas at
    /// the block's gas price (rounded up by the caller), so routes with more legs cost what their
    /// calldata costs. Every path's gas goes through [`DexSpec::leg_gas_units`], so the search, the
    /// optimizer and the plan all see it.
    pub fn set_leg_overhead_gas(&mut self, gas: u64) {
        if gas == self.leg_overhead_gas {
            return;
        }
        self.leg_overhead_gas = gas;
        for slot in 0..self.pools.len() {
            if let Some(dex) = self.pools[slot].as_ref().map(|entry| entry.dex) {
                let spec = self.spec_of(dex);
                // A new entry (a copy of the state, its memos empty) where the copy shares it.
                if let Some(entry) = self.pools[slot].as_mut() {
                    Arc::make_mut(entry).spec = spec;
                }
            }
        }
    }

    /// The per-leg overhead in gas units ([`Market::set_leg_overhead_gas`]).
    pub fn leg_overhead_gas(&self) -> u64 {
        self.leg_overhead_gas
    }

    /// Removes pools by id; unknown ids are ignored (removal is idempotent). Returns how many went.
    /// A malformed id refuses the whole call before anything is removed.
    pub fn remove(&mut self, ids: &[String]) -> Result<usize, SolverError> {
        let ids = ids.iter().map(|id| normalize_pool_id(id)).collect::<Result<Vec<_>, _>>()?;
        let mut removed = 0;
        for id in ids {
            if let Some(slot) = self.pool_index.get(&id).copied() {
                self.unlink(slot);
                removed += 1;
            }
        }
        Ok(removed)
    }

    fn intern(&mut self, address: Address) -> TokenIdx {
        if let Some(index) = self.token_index.get(&address) {
            return *index;
        }
        let index = self.tokens.len() as TokenIdx;
        self.tokens.push(address);
        self.pools_per_token.push(0);
        self.neighbours.push(Vec::new());
        self.token_index.insert(address, index);
        index
    }

    fn link(&mut self, slot: PoolIdx) {
        let entry = self.pools[slot as usize].as_ref().expect("slot just filled");
        let tokens = entry.tokens.clone();
        for (i, &a) in tokens.iter().enumerate() {
            self.pools_per_token[a as usize] += 1;
            for (j, &b) in tokens.iter().enumerate() {
                if i == j {
                    continue;
                }
                let hop = Hop { pool: slot, token_in: i as u8, token_out: j as u8 };
                let list = self.edges.entry((a, b)).or_default();
                if list.is_empty() {
                    // By address, not index: indices follow the order tokens arrived in, and a
                    // market fed the same pools in another order must walk them the same way.
                    let tokens = &self.tokens;
                    let around = &mut self.neighbours[a as usize];
                    if let Err(at) =
                        around.binary_search_by(|t| tokens[*t as usize].cmp(&tokens[b as usize]))
                    {
                        around.insert(at, b);
                    }
                }
                let id = &entry.id;
                let at = list.partition_point(|h| {
                    self.pools[h.pool as usize].as_ref().is_some_and(|p| p.id < *id)
                });
                list.insert(at, hop);
            }
        }
    }

    fn unlink(&mut self, slot: PoolIdx) {
        let Some(entry) = self.pools[slot as usize].take() else { return };
        for (i, &a) in entry.tokens.iter().enumerate() {
            self.pools_per_token[a as usize] -= 1;
            for (j, &b) in entry.tokens.iter().enumerate() {
                if i != j {
                    if let Some(list) = self.edges.get_mut(&(a, b)) {
                        list.retain(|h| h.pool != slot);
                        if list.is_empty() {
                            self.edges.remove(&(a, b));
                            self.neighbours[a as usize].retain(|t| *t != b);
                        }
                    }
                }
            }
        }
        self.held.retain(|_, holder| *holder != entry.id);
        self.pool_index.remove(&entry.id);
        self.free_slots.push(slot);
    }
}

impl Market {
    /// Number of live pools.
    pub fn pool_count(&self) -> usize {
        self.tables.pool_count()
    }

    /// The address of a token index.
    pub fn token_address(&self, token: TokenIdx) -> Address {
        self.tables.token_address(token)
    }

    /// The index of a known token.
    pub fn token(&self, address: &Address) -> Option<TokenIdx> {
        self.tables.token(address)
    }

    /// A live pool (as this view replaces it, if it does). Panics only on an index the market
    /// never handed out (a solver bug).
    pub fn pool(&self, pool: PoolIdx) -> &PoolEntry {
        if !self.replaced.is_empty() {
            if let Ok(at) = self.replaced.binary_search_by_key(&pool, |(slot, _)| *slot) {
                return &self.replaced[at].1;
            }
        }
        self.tables.pool(pool)
    }

    /// The pool with this id, if live.
    pub fn pool_by_id(&self, id: &str) -> Option<PoolIdx> {
        self.tables.pool_by_id(id)
    }

    /// Every way from `from` to `to` through one pool, sorted by pool id.
    pub fn edge(&self, from: TokenIdx, to: TokenIdx) -> &[Hop] {
        self.tables.edge(from, to)
    }

    /// The tokens that share at least one pool with `token`, ascending by address (so the walk
    /// does not depend on the order pools were added in).
    pub fn neighbours(&self, token: TokenIdx) -> &[TokenIdx] {
        self.tables.neighbours(token)
    }

    /// The `count` tokens most pools hold, in that order (most first, ties by address).
    pub fn best_connected_tokens(&self, count: usize) -> Vec<TokenIdx> {
        self.tables.best_connected_tokens(count)
    }

    /// A view of this market with the states of some pools replaced, for one quote: the pools keep
    /// their slots, ids, kinds and tokens (so the graph is the market's), only their states
    /// differ. Costs the replaced pools (a sort of them), never a copy of the market; the market
    /// itself is unchanged. A later replacement of the same slot wins. Panics only on a slot the
    /// market never handed out (a solver bug: callers look slots up by id).
    pub fn with_pools_replaced(&self, states: Vec<(PoolIdx, Arc<PoolEntry>)>) -> Market {
        let mut replaced: Vec<(PoolIdx, Arc<PoolEntry>)> =
            self.replaced.iter().cloned().chain(states).collect();
        for (slot, entry) in &replaced {
            assert_eq!(self.tables.pool(*slot).id, entry.id, "a replaced pool keeps its slot's id");
        }
        // Stable: of two entries for one slot, the later stays (dedup keeps the first of a run).
        replaced.reverse();
        replaced.sort_by_key(|(slot, _)| *slot);
        replaced.dedup_by_key(|(slot, _)| *slot);
        Market { tables: Arc::clone(&self.tables), replaced: replaced.into() }
    }

    /// This market without the pools a view replaced ([`Market::with_pools_replaced`]): the
    /// market's own states.
    pub fn unreplaced(&self) -> Market {
        Market { tables: Arc::clone(&self.tables), replaced: Arc::new([]) }
    }

    /// The tables to change: copied here if another copy shares them. Changing a view with
    /// replaced pools is a solver bug (a view lives for one quote).
    fn tables_mut(&mut self) -> &mut Tables {
        assert!(self.replaced.is_empty(), "a view with replaced pools is never updated");
        Arc::make_mut(&mut self.tables)
    }

    /// Inserts or replaces pools, all or nothing: one invalid pool refuses the whole batch.
    pub fn upsert(&mut self, inputs: Vec<PoolInput>) -> Result<usize, SolverError> {
        self.tables_mut().upsert(inputs)
    }

    /// Applies one block's changes: every valid pool of `inputs` is inserted or replaced, every id
    /// of `removals` goes (a removal wins over an upsert of the same id), and a pool whose input is
    /// refused goes too (its old state is no longer the state at this block). Returns the refused
    /// inputs with why, by id (or by position when the id itself is unreadable).
    pub fn apply(
        &mut self,
        inputs: Vec<PoolInput>,
        removals: &[String],
    ) -> Result<Vec<Rejected>, SolverError> {
        self.tables_mut().apply(inputs, removals)
    }

    /// The most [`Market::set_leg_overhead_gas`] takes (see [`Tables::MAX_LEG_OVERHEAD_GAS`]).
    pub const MAX_LEG_OVERHEAD_GAS: u64 = Tables::MAX_LEG_OVERHEAD_GAS;

    /// Adds `gas` units to every leg's base gas, for every pool now and later, replacing the
    /// previous overhead (the L1 data fee of one leg's calldata, in L2 gas at the block's gas price).
    pub fn set_leg_overhead_gas(&mut self, gas: u64) {
        if gas != self.tables.leg_overhead_gas {
            self.tables_mut().set_leg_overhead_gas(gas);
        }
    }

    /// The per-leg overhead in gas units ([`Market::set_leg_overhead_gas`]).
    pub fn leg_overhead_gas(&self) -> u64 {
        self.tables.leg_overhead_gas()
    }

    /// Removes pools by id; unknown ids are ignored (removal is idempotent). Returns how many went.
    /// A malformed id refuses the whole call before anything is removed.
    pub fn remove(&mut self, ids: &[String]) -> Result<usize, SolverError> {
        self.tables_mut().remove(ids)
    }
}

/// A panic injected into the middle of a market update, for the tests that prove a panicking
/// update never leaves a half-updated market serving quotes (`solver_tests.rs`).
#[cfg(test)]
pub(crate) mod injected_panic {
    use std::cell::Cell;

    thread_local! {
        static INSERTS_LEFT: Cell<Option<usize>> = const { Cell::new(None) };
    }

    /// The `inserts`-th pool insert from now on this thread panics (once).
    pub(crate) fn after_inserts(inserts: usize) {
        INSERTS_LEFT.with(|left| left.set(Some(inserts)));
    }

    pub(super) fn before_insert() {
        INSERTS_LEFT.with(|left| match left.get() {
            Some(0) => {
                left.set(None);
                panic!("injected panic in the middle of a market update");
            }
            Some(n) => left.set(Some(n - 1)),
            None => {}
        });
    }
}

#[cfg(test)]
#[path = "market_tests.rs"]
mod tests;
