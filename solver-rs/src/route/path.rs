//! A path through the market, and its exact simulation on a copy-on-write view of pool states.

use super::swap_memos::SwapMemos;
use crate::market::{Hop, Market, PoolIdx, TokenIdx};
use crate::math::U256;
use crate::pools::{PoolError, PoolModel, PoolState, SwapOutcome};

/// A chain of hops from `tokens[0]` to `tokens[last]`; tokens are distinct, so a two-token pool
/// never repeats (a venue of more tokens may: [`Overlay`] runs its second swap on its first's state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub tokens: Vec<TokenIdx>,
    pub hops: Vec<Hop>,
}

impl Path {
    /// Whether the path goes through one pool twice (two pairs of a venue of more tokens).
    pub fn repeats_a_pool(&self) -> bool {
        repeats_a_pool(&self.hops)
    }

    /// Whether two paths go through a common pool.
    pub fn shares_pool_with(&self, other: &Path) -> bool {
        self.hops.iter().any(|a| other.hops.iter().any(|b| a.pool == b.pool))
    }
}

/// One executed leg: what went in, what came out, and its gas units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegFill {
    pub hop: Hop,
    pub amount_in: U256,
    pub amount_out: U256,
    pub gas_units: u64,
}

/// Pool states as the market holds them, with the swaps of earlier routes applied on top.
/// Routes execute in order, so a pool used by two routes is seen by the second as the first left it.
/// Keyed by venue (the pool), not by pair: a venue of n tokens is one state, and a swap through
/// one of its pairs is seen by every later swap through any of its pairs.
#[derive(Clone)]
pub struct Overlay<'m> {
    market: &'m Market,
    changed: Vec<(PoolIdx, PoolState)>,
    /// The quote's swap memos, when it keeps them (the same outcomes, for less work).
    memos: Option<&'m SwapMemos>,
}

impl<'m> Overlay<'m> {
    pub fn new(market: &'m Market) -> Self {
        Overlay { market, changed: Vec::new(), memos: None }
    }

    /// A view whose swaps use and extend `memos` (kept by the caller across views of one market).
    pub fn memoized(market: &'m Market, memos: &'m SwapMemos) -> Self {
        Overlay { market, changed: Vec::new(), memos: Some(memos) }
    }

    /// The pool's current state in this view.
    pub fn state(&self, pool: PoolIdx) -> &PoolState {
        match self.changed.iter().find(|(p, _)| *p == pool) {
            Some((_, state)) => state,
            None => &self.market.pool(pool).state,
        }
    }

    /// Swaps `amount_in` through one hop, applying it to this view. Returns the outcome and its gas:
    /// a pool an earlier swap of this view used is warm, and costs its kind's repeated-leg gas.
    pub fn swap(&mut self, hop: Hop, amount_in: U256) -> Result<(SwapOutcome, u64), PoolError> {
        // One lookup: a pool this view changed is also a pool an earlier swap used (warm).
        let slot = self.changed.iter().position(|(p, _)| *p == hop.pool);
        let entry = self.market.pool(hop.pool);
        let state = slot.map_or(&entry.state, |i| &self.changed[i].1);
        let (i, o) = (hop.token_in as usize, hop.token_out as usize);
        let (outcome, next) = match self.memos {
            Some(memos) => memos.apply(hop.pool, state, i, o, amount_in)?,
            None => state.apply(i, o, amount_in)?,
        };
        let gas = if slot.is_some() {
            entry.spec.repeated_leg_gas_units(&outcome)
        } else {
            entry.spec.leg_gas_units(&outcome)
        };
        match slot {
            Some(i) => self.changed[i].1 = next,
            None => self.changed.push((hop.pool, next)),
        }
        Ok((outcome, gas))
    }

    /// Swaps `amount_in` along `path`, applying every leg to this view. Returns the output and gas.
    pub fn run(
        &mut self,
        path: &Path,
        amount_in: U256,
        mut fills: Option<&mut Vec<LegFill>>,
    ) -> Result<(U256, u64), PoolError> {
        run_hops(&path.hops, amount_in, |hop, amount| {
            let (outcome, leg_gas) = self.swap(hop, amount)?;
            if let Some(fills) = fills.as_deref_mut() {
                fills.push(LegFill {
                    hop,
                    amount_in: amount,
                    amount_out: outcome.amount_out,
                    gas_units: leg_gas,
                });
            }
            Ok((outcome.amount_out, leg_gas))
        })
    }
}

/// Runs `amount_in` along `hops`, each leg's output the next leg's input, every leg swapped by
/// `swap` (an overlay's, the market's as it is, water-filling's view): the one loop all ways of
/// running a path share. Returns the output and the legs' gas summed (saturating: a saturated
/// total is over every cap), or the first leg's refusal.
pub fn run_hops<E>(
    hops: &[Hop],
    amount_in: U256,
    mut swap: impl FnMut(Hop, U256) -> Result<(U256, u64), E>,
) -> Result<(U256, u64), E> {
    let mut amount = amount_in;
    let mut gas = 0u64;
    for hop in hops {
        let (out, leg_gas) = swap(*hop, amount)?;
        gas = gas.saturating_add(leg_gas);
        amount = out;
    }
    Ok((amount, gas))
}

/// Quotes `path` alone on the market as it is. It goes through `apply`, like the final replay, so
/// an allocation it accepts is one the replay can execute (`apply` also checks the state after
/// the swap, e.g. reserves that would overflow the pool's storage).
pub fn quote_path(market: &Market, path: &Path, amount_in: U256) -> Result<(U256, u64), PoolError> {
    quote_path_memoized(market, &SwapMemos::default(), path, amount_in)
}

/// [`quote_path`], its swaps using and extending `memos` (the quote's, of this `market`): the same
/// output and gas to the unit. A path through one venue twice (two pairs of a venue of more tokens)
/// runs its second swap on the state the first left, as the plan's replay ([`Overlay`]) runs it:
/// priced on the untouched venue, a path that the replay refuses (a sampled venue of three tokens
/// prices one pair per plan) or pays less on was quoted whole, and a split whose only start was that
/// path found no route.
pub fn quote_path_memoized(
    market: &Market,
    memos: &SwapMemos,
    path: &Path,
    amount_in: U256,
) -> Result<(U256, u64), PoolError> {
    if path.repeats_a_pool() {
        return Overlay::memoized(market, memos).run(path, amount_in, None);
    }
    run_hops(&path.hops, amount_in, |hop, amount| {
        let entry = market.pool(hop.pool);
        let (i, o) = (hop.token_in as usize, hop.token_out as usize);
        let (outcome, _) = memos.apply(hop.pool, &entry.state, i, o, amount)?;
        Ok((outcome.amount_out, entry.spec.leg_gas_units(&outcome)))
    })
}

/// Whether `hops` go through one pool twice.
fn repeats_a_pool(hops: &[Hop]) -> bool {
    hops.iter().enumerate().any(|(k, a)| hops[..k].iter().any(|b| b.pool == a.pool))
}

/// The search's paths at `amount` that go through one venue twice, quoted again as the replay runs
/// them (on an [`Overlay`], as [`quote_path_memoized`] quotes such a path), and dropped where it
/// refuses them. The beam search prices each
/// hop on the market's state (`search.rs`, `extend`), so such a path was found with both swaps on
/// the untouched venue: a sampled venue of three tokens refuses its second pair in the replay, and
/// the optimizer, starting from that path as the best single one, found no feasible start and
/// answered no route (the seeded tricrypto-ng pool, USDC → cbBTC through CURVE pools only).
pub fn requote_repeated_venues(
    market: &Market,
    memos: &SwapMemos,
    found: &mut Vec<super::search::Found>,
    amount: U256,
) {
    found.retain_mut(|f| {
        if !repeats_a_pool(f.hops()) {
            return true;
        }
        match Overlay::memoized(market, memos).run(&f.path(), amount, None) {
            Ok((out, gas)) => {
                (f.out, f.gas) = (out, gas);
                true
            }
            Err(_) => false,
        }
    });
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
