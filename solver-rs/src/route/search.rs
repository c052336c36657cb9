//! Candidate paths: a beam search from tokenIn to tokenOut through connector tokens.
//!
//! Enumerating every path is exponential in hops and pools, so at each depth only the best
//! `beam` partial paths reaching each intermediate token survive (compared in that token, so the
//! comparison is exact). The search runs at the full amount, and again at a fraction of it when
//! splitting, so thin pools that cannot take the whole trade still become split candidates.

use super::clock::Deadline;
use super::path::{quote_path_memoized, Path};
use super::request::MAX_HOPS;
use super::swap_memos::{SmallKeyHasher, SwapMemos};
use crate::dex::DexId;
use crate::market::{Hop, Market, PoolIdx, TokenIdx};
use crate::math::U256;
use crate::pools::PoolModel;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// The set of DEX kinds a request allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DexMask(u32);

impl DexMask {
    pub const ALL: DexMask = DexMask(u32::MAX);

    pub fn of(dexes: &[DexId]) -> DexMask {
        DexMask(dexes.iter().fold(0, |mask, d| mask | 1 << (*d as u32)))
    }

    pub fn allows(self, dex: DexId) -> bool {
        self.0 & (1 << (dex as u32)) != 0
    }

    /// This mask without `dexes`.
    pub fn without(self, dexes: &[DexId]) -> DexMask {
        DexMask(self.0 & !DexMask::of(dexes).0)
    }

    /// Whether every dex is allowed (no `allowedDexes` filter).
    pub fn allows_all(self) -> bool {
        self.0 == u32::MAX
    }
}

/// What to search for.
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub token_in: TokenIdx,
    pub token_out: TokenIdx,
    pub max_hops: usize,
    /// Tokens allowed in the middle of a path.
    pub connectors: Vec<TokenIdx>,
    pub dexes: DexMask,
    /// Partial paths kept per intermediate token and depth.
    pub beam: usize,
}

/// The most hops a search path has: requests ask for at most [`MAX_HOPS`].
const PATH_HOPS: usize = MAX_HOPS as usize;

/// A path the search is extending, held inline: each extension (every pool the search tries)
/// allocated its tokens and hops anew, about a fifth of a 10,000-pool 2-hop path search.
#[derive(Clone, Copy, Debug)]
struct Partial {
    /// The first `len + 1` are the path's tokens.
    tokens: [TokenIdx; PATH_HOPS + 1],
    /// The first `len` are its hops.
    hops: [Hop; PATH_HOPS],
    len: usize,
    amount: U256,
    gas: u64,
}

impl Partial {
    fn start(token_in: TokenIdx, amount: U256) -> Partial {
        let hop = Hop { pool: 0, token_in: 0, token_out: 0 };
        Partial {
            tokens: [token_in; PATH_HOPS + 1],
            hops: [hop; PATH_HOPS],
            len: 0,
            amount,
            gas: 0,
        }
    }

    fn tokens(&self) -> &[TokenIdx] {
        &self.tokens[..=self.len]
    }

    fn hops(&self) -> &[Hop] {
        &self.hops[..self.len]
    }

    fn last_token(&self) -> TokenIdx {
        self.tokens[self.len]
    }
}

/// A complete path the search reached, with its exact output and gas at the search's amount (as
/// [`quote_path`] computes them: every leg through `apply`). The path is held inline and made a
/// [`Path`] only where it becomes a candidate ([`Reached::into_evaluated`], for the paths the
/// ranking keeps): a 10,000-pool 2-hop split's two searches reach about 170 paths each, mostly the
/// same ones, and allocating each one's tokens and hops was about a twentieth of the quote, in the
/// allocator.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    reached: Partial,
    pub out: U256,
    pub gas: u64,
}

impl Found {
    /// The path's hops.
    pub fn hops(&self) -> &[Hop] {
        self.reached.hops()
    }

    /// Its hops as a key ([`HopsKey`]).
    fn key(&self) -> HopsKey {
        hops_key(self.hops())
    }

    /// The path, allocated.
    pub fn path(&self) -> Path {
        Path { tokens: self.reached.tokens().to_vec(), hops: self.reached.hops().to_vec() }
    }
}

/// Every complete path the beam search reached at `amount`, deduplicated by hop sequence, before
/// `deadline`. Returns whether the search ran to its end (false: it stopped at the deadline).
/// Its swaps use and extend `memos` (the quote's, of this `market`: the searches at both amounts
/// and the evaluation swap the same pools from the same states, the same outcomes for less work).
///
/// The deadline is checked before every pool swap but those of the direct pools from tokenIn to
/// tokenOut (the first depth's edge to tokenOut): those are always swapped, a bounded step that
/// gives a route whenever a direct pool exists, however small the budget. A search stopped
/// mid-depth keeps the complete paths it reached and drops its partial ones.
pub fn find_paths(
    market: &Market,
    memos: &SwapMemos,
    params: &SearchParams,
    amount: U256,
    found: &mut Vec<Found>,
    deadline: &Deadline,
) -> bool {
    beam_search(market, memos, params, amount, found, true, deadline)
}

/// The beam search; `skip_by_bound` skips pools whose output bound cannot enter a full beam (the
/// search without it is the reference the tests compare with: the results must not differ).
fn beam_search(
    market: &Market,
    memos: &SwapMemos,
    params: &SearchParams,
    amount: U256,
    found: &mut Vec<Found>,
    skip_by_bound: bool,
    deadline: &Deadline,
) -> bool {
    let mut frontier = vec![Partial::start(params.token_in, amount)];
    let mut reached: HashSet<HopsKey, Hashing> = found.iter().map(Found::key).collect();
    // Deeper paths than requests may ask for are searched at that depth (the inline paths' size).
    let max_hops = params.max_hops.min(PATH_HOPS);
    // Each connector's pools, their bounds, their order and the steps taken: one set of buffers
    // for the whole search (fresh ones per partial and connector were a tenth of a 10,000-pool
    // search, in the allocator).
    let (mut hops, mut bounds): (Vec<Hop>, Vec<f64>) = (Vec::new(), Vec::new());
    let (mut by_bound, mut steps): (Vec<usize>, Vec<(usize, Partial)>) = (Vec::new(), Vec::new());
    for depth in 1..=max_hops {
        let last_depth = depth == max_hops;
        let mut next: BTreeMap<TokenIdx, Vec<Partial>> = BTreeMap::new();
        // Per connector, the best `beam` amounts reaching it so far (descending): the bar to enter.
        let mut best: BTreeMap<TokenIdx, Vec<U256>> = BTreeMap::new();
        for partial in &frontier {
            let here = partial.last_token();
            for hop in usable(market, params, here, params.token_out) {
                if depth > 1 && deadline.expired() {
                    return false;
                }
                if let Some(step) = extend(market, memos, partial, *hop, params.token_out) {
                    if reached.insert(hops_key(step.hops())) {
                        found.push(Found { reached: step, out: step.amount, gas: step.gas });
                    }
                }
            }
            if last_depth {
                continue;
            }
            for &connector in &params.connectors {
                if partial.tokens().contains(&connector) || connector == params.token_out {
                    continue;
                }
                let top = best.entry(connector).or_default();
                // Pools in order of the most they could pay (each model's proven output bound);
                // once `beam` partials reach the connector, a pool whose bound is below the beam-th
                // best amount cannot enter the beam (ties keep edge order, so it must be strictly
                // below) and is not swapped. The ones swapped are kept in edge order, so the beam
                // is the same.
                hops.clear();
                hops.extend(usable(market, params, here, connector).copied());
                bounds.clear();
                bounds.extend(hops.iter().map(|hop| output_bound(market, hop, partial.amount)));
                by_bound.clear();
                by_bound.extend(0..hops.len());
                by_bound.sort_by(|&a, &b| bounds[b].total_cmp(&bounds[a]));
                steps.clear();
                for &k in &by_bound {
                    if let (true, Some(needed)) =
                        (skip_by_bound, params.beam.checked_sub(1).and_then(|last| top.get(last)))
                    {
                        if bounds[k] < f64::from(needed) {
                            break;
                        }
                    }
                    if deadline.expired() {
                        return false;
                    }
                    if let Some(step) = extend(market, memos, partial, hops[k], connector) {
                        enter(top, step.amount, params.beam);
                        steps.push((k, step));
                    }
                }
                steps.sort_by_key(|(k, _)| *k);
                next.entry(connector).or_default().extend(steps.drain(..).map(|(_, step)| step));
            }
        }
        frontier = next
            .into_values()
            .flat_map(|mut partials| {
                // Best amount first; the sort is stable, so ties keep the deterministic edge order.
                partials.sort_by_key(|p| std::cmp::Reverse(p.amount));
                partials.truncate(params.beam);
                partials
            })
            .collect();
        if frontier.is_empty() {
            break;
        }
    }
    true
}

fn usable<'m>(
    market: &'m Market,
    params: &SearchParams,
    from: TokenIdx,
    to: TokenIdx,
) -> impl Iterator<Item = &'m Hop> + 'm {
    let dexes = params.dexes;
    market.edge(from, to).iter().filter(move |hop| dexes.allows(market.pool(hop.pool).dex))
}

/// Relative room for floating point around a pool's output bound: the bound is evaluated with a
/// relative error below 1e-13, and the amounts it meets are rounded to f64 (2^-52 at worst).
const FLOAT_MARGIN: f64 = 1e-9;

/// An upper bound on what `hop` pays for `amount` ([`PoolModel::amount_out_bound`], with room for
/// float rounding): if it is below an amount, the pool's exact output is strictly below it too.
fn output_bound(market: &Market, hop: &Hop, amount: U256) -> f64 {
    let bound = market.pool(hop.pool).state.amount_out_bound(
        hop.token_in as usize,
        hop.token_out as usize,
        f64::from(amount),
    );
    if bound.is_nan() {
        f64::INFINITY
    } else {
        bound * (1.0 + FLOAT_MARGIN)
    }
}

/// Adds `amount` to `top`, the best `width` amounts in descending order.
fn enter(top: &mut Vec<U256>, amount: U256, width: usize) {
    let at = top.partition_point(|a| *a >= amount);
    if at < width {
        top.insert(at, amount);
        top.truncate(width);
    }
}

/// `partial` one hop further, swapped exactly; None if the pool cannot take its amount.
fn extend(
    market: &Market,
    memos: &SwapMemos,
    partial: &Partial,
    hop: Hop,
    to: TokenIdx,
) -> Option<Partial> {
    let len = partial.len.checked_add(1).filter(|l| *l <= PATH_HOPS)?;
    let entry = market.pool(hop.pool);
    let (i, o) = (hop.token_in as usize, hop.token_out as usize);
    let (outcome, _) = memos.apply(hop.pool, &entry.state, i, o, partial.amount).ok()?;
    let mut next = *partial;
    next.tokens[len] = to;
    next.hops[partial.len] = hop;
    next.len = len;
    next.amount = outcome.amount_out;
    next.gas = partial.gas.saturating_add(entry.spec.leg_gas_units(&outcome));
    Some(next)
}

/// A path's hops as a set's key (`Hop` is not `Hash`): its length and each hop's pool and token
/// positions, the rest zero, so paths have equal keys exactly when their hops are equal. The
/// searches and the evaluation looked each path up by comparing it with every path reached
/// before (about 170 × 170 comparisons per search and per evaluation at 10,000 pools, 2 hops).
type HopsKey = (usize, [(PoolIdx, u8, u8); PATH_HOPS]);

/// How the sets and maps of [`HopsKey`]s hash them: a multiplication per integer, not SipHash
/// (they are looked up, never iterated, so the hash decides nothing but speed).
type Hashing = BuildHasherDefault<SmallKeyHasher>;

fn hops_key(hops: &[Hop]) -> HopsKey {
    let mut key = [(0, 0, 0); PATH_HOPS];
    for (entry, hop) in key.iter_mut().zip(hops) {
        *entry = (hop.pool, hop.token_in, hop.token_out);
    }
    (hops.len(), key)
}

/// A path's standalone quote at the full amount and at the split probe amount.
#[derive(Clone, Debug)]
pub struct Evaluated {
    pub path: Path,
    /// (output, gas units) when the path takes the whole amount, if it can.
    pub full: Option<(U256, u64)>,
    /// Output at the probe amount, if it can take it.
    pub probe: Option<U256>,
}

/// A path of either search with its quote at both amounts ([`Evaluated`]'s), its path still held
/// inline: of the about 170 paths a 10,000-pool 2-hop quote reaches, the ranking keeps a few
/// (`maxCandidates`), and allocating every one's tokens and hops was about 4 % of the quote.
#[derive(Clone, Copy, Debug)]
pub struct Reached {
    found: Found,
    /// (output, gas units) when the path takes the whole amount, if it can.
    pub full: Option<(U256, u64)>,
    /// Output at the probe amount, if it can take it.
    pub probe: Option<U256>,
}

impl Reached {
    /// The candidate, its path allocated.
    pub fn into_evaluated(self) -> Evaluated {
        Evaluated { path: self.found.path(), full: self.full, probe: self.probe }
    }
}

/// The paths of both searches (the full amount's first, then the probe's new ones), each with its
/// quote at both amounts: taken from the search that reached it, computed for the other while
/// `deadline` allows (past it, the other amount's quote is left out, as if the path could not
/// take it: the optimizer still quotes its candidates itself before using them). Its swaps use and
/// extend `memos`, as the searches' do.
pub fn evaluate(
    market: &Market,
    memos: &SwapMemos,
    at_full: Vec<Found>,
    at_probe: Vec<Found>,
    amount_in: U256,
    probe_amount: Option<U256>,
    deadline: &Deadline,
) -> Vec<Reached> {
    // One path for every quote here, its hops replaced each time (a quote reads only the hops).
    let mut path = Path { tokens: Vec::new(), hops: Vec::new() };
    let mut quote_at = |found: &Found, amount: U256| {
        if deadline.expired() {
            return None;
        }
        path.hops.clear();
        path.hops.extend_from_slice(found.hops());
        quote_path_memoized(market, memos, &path, amount).ok()
    };
    let mut reached: Vec<Reached> =
        Vec::with_capacity(at_full.len().saturating_add(at_probe.len()));
    // Each search's paths are distinct (`beam_search`): a key names one path of each.
    let probe_outs: HashMap<HopsKey, U256, Hashing> =
        at_probe.iter().map(|p| (p.key(), p.out)).collect();
    for found in &at_full {
        let probe = match probe_outs.get(&found.key()) {
            Some(out) => Some(*out),
            None => probe_amount.and_then(|p| quote_at(found, p).map(|(out, _)| out)),
        };
        reached.push(Reached { found: *found, full: Some((found.out, found.gas)), probe });
    }
    let at_full: HashSet<HopsKey, Hashing> = at_full.iter().map(Found::key).collect();
    for found in &at_probe {
        if !at_full.contains(&found.key()) {
            let full = quote_at(found, amount_in);
            reached.push(Reached { found: *found, full, probe: Some(found.out) });
        }
    }
    reached
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
