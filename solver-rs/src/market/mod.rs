//! The market the solver owns: tokens, pools and the directed edges between tokens.
//! TypeScript upserts only the pools that changed in a block; quotes read it in place.

use crate::address::{normalize_pool_id, Address};
use crate::dex::DexId;
use crate::error::SolverError;
use crate::pools::input::{decode_state, PoolInput};
use crate::pools::registry::{spec, DexSpec};
use crate::pools::PoolState;
use std::collections::HashMap;

/// Index of a token in [`Market::tokens`].
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
#[derive(Debug, Default)]
pub struct Market {
    tokens: Vec<Address>,
    token_index: HashMap<Address, TokenIdx>,
    pools: Vec<Option<PoolEntry>>,
    free_slots: Vec<PoolIdx>,
    pool_index: HashMap<String, PoolIdx>,
    edges: HashMap<(TokenIdx, TokenIdx), Vec<Hop>>,
    pools_per_token: Vec<u32>,
}

impl Market {
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
        self.pools[pool as usize].as_ref().expect("live pool index")
    }

    /// The pool with this id, if live.
    pub fn pool_by_id(&self, id: &str) -> Option<PoolIdx> {
        self.pool_index.get(&id.to_ascii_lowercase()).copied()
    }

    /// Every way from `from` to `to` through one pool, sorted by pool id.
    pub fn edge(&self, from: TokenIdx, to: TokenIdx) -> &[Hop] {
        self.edges.get(&(from, to)).map_or(&[], Vec::as_slice)
    }

    /// Tokens ordered by how many pools hold them (most first, ties by address).
    pub fn best_connected_tokens(&self, count: usize) -> Vec<TokenIdx> {
        let mut order: Vec<TokenIdx> = (0..self.tokens.len() as TokenIdx).filter(|t| self.pools_per_token[*t as usize] > 0).collect();
        order.sort_by(|a, b| {
            let (pa, pb) = (self.pools_per_token[*a as usize], self.pools_per_token[*b as usize]);
            pb.cmp(&pa).then_with(|| self.tokens[*a as usize].cmp(&self.tokens[*b as usize]))
        });
        order.truncate(count);
        order
    }

    /// Inserts or replaces pools, all or nothing: one invalid pool refuses the whole batch.
    pub fn upsert(&mut self, inputs: Vec<PoolInput>) -> Result<usize, SolverError> {
        let mut decoded = Vec::with_capacity(inputs.len());
        let mut seen = std::collections::HashSet::new();
        for input in inputs {
            let id = normalize_pool_id(&input.id)?;
            if !seen.insert(id.clone()) {
                return Err(SolverError::InvalidInput(format!("pool {id} appears twice in one upsert")));
            }
            if input.tokens.len() != 2 {
                return Err(SolverError::InvalidInput(format!("pool {id}: expected 2 tokens, got {}", input.tokens.len())));
            }
            let tokens = input.tokens.iter().map(|t| Address::parse(t)).collect::<Result<Vec<_>, _>>()?;
            if tokens[0] == tokens[1] {
                return Err(SolverError::InvalidInput(format!("pool {id}: both tokens are {}", tokens[0])));
            }
            let state = decode_state(input.dex, input.state)
                .map_err(|e| SolverError::from(e).with_context(&format!("pool {id}")))?;
            decoded.push((id, input.dex, tokens, state));
        }
        let count = decoded.len();
        for (id, dex, tokens, state) in decoded {
            if let Some(existing) = self.pool_index.get(&id).copied() {
                self.unlink(existing);
            }
            let tokens: Vec<TokenIdx> = tokens.into_iter().map(|t| self.intern(t)).collect();
            let entry = PoolEntry { id: id.clone(), dex, spec: spec(dex), tokens, state };
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
        Ok(count)
    }

    /// Removes pools by id; unknown ids are ignored (removal is idempotent). Returns how many went.
    pub fn remove(&mut self, ids: &[String]) -> Result<usize, SolverError> {
        let mut removed = 0;
        for id in ids {
            let id = normalize_pool_id(id)?;
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
                let id = &entry.id;
                let at = list.partition_point(|h| self.pools[h.pool as usize].as_ref().is_some_and(|p| p.id < *id));
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
                        }
                    }
                }
            }
        }
        self.pool_index.remove(&entry.id);
        self.free_slots.push(slot);
    }
}
