//! Candidate paths: a beam search from tokenIn to tokenOut through connector tokens.
//!
//! Enumerating every path is exponential in hops and pools, so at each depth only the best
//! `beam` partial paths reaching each intermediate token survive (compared in that token, so the
//! comparison is exact). The search runs at the full amount, and again at a fraction of it when
//! splitting, so thin pools that cannot take the whole trade still become split candidates.

use super::path::{quote_path, Path};
use crate::dex::DexId;
use crate::market::{Hop, Market, TokenIdx};
use crate::math::U256;
use crate::pools::PoolModel;
use std::collections::BTreeMap;

/// The set of DEX kinds a request allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DexMask(u32);

impl DexMask {
    pub const ALL: DexMask = DexMask(u32::MAX);

    pub fn of(dexes: &[DexId]) -> DexMask {
        DexMask(dexes.iter().fold(0, |mask, d| mask | 1 << (*d as u32)))
    }

    pub fn allows(self, dex: DexId) -> bool {
        self.0 & (1 << (dex as u32)) != 0
    }
}

/// What to search for.
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub token_in: TokenIdx,
    pub token_out: TokenIdx,
    pub amount_in: U256,
    pub max_hops: usize,
    /// Tokens allowed in the middle of a path.
    pub connectors: Vec<TokenIdx>,
    pub dexes: DexMask,
    /// Partial paths kept per intermediate token and depth.
    pub beam: usize,
}

#[derive(Clone, Debug)]
struct Partial {
    tokens: Vec<TokenIdx>,
    hops: Vec<Hop>,
    amount: U256,
    gas: u64,
}

/// A complete path the search reached, with its exact output and gas at the search's amount (as
/// [`quote_path`] computes them: every leg through `apply`).
#[derive(Clone, Debug)]
pub struct Found {
    pub path: Path,
    pub out: U256,
    pub gas: u64,
}

/// Every complete path the beam search reached at `amount`, deduplicated by hop sequence.
pub fn find_paths(market: &Market, params: &SearchParams, amount: U256, found: &mut Vec<Found>) {
    beam_search(market, params, amount, found, true);
}

/// The beam search; `skip_by_bound` skips pools whose output bound cannot enter a full beam (the
/// search without it is the reference the tests compare with: the results must not differ).
fn beam_search(market: &Market, params: &SearchParams, amount: U256, found: &mut Vec<Found>, skip_by_bound: bool) {
    let mut frontier = vec![Partial { tokens: vec![params.token_in], hops: Vec::new(), amount, gas: 0 }];
    for depth in 1..=params.max_hops {
        let last_depth = depth == params.max_hops;
        let mut next: BTreeMap<TokenIdx, Vec<Partial>> = BTreeMap::new();
        // Per connector, the best `beam` amounts reaching it so far (descending): the bar to enter.
        let mut best: BTreeMap<TokenIdx, Vec<U256>> = BTreeMap::new();
        for partial in &frontier {
            let here = *partial.tokens.last().expect("a partial path has a token");
            for hop in usable(market, params, here, params.token_out) {
                if let Some(step) = extend(market, partial, *hop, params.token_out) {
                    if !found.iter().any(|f| f.path.hops == step.hops) {
                        found.push(Found { path: Path { tokens: step.tokens, hops: step.hops }, out: step.amount, gas: step.gas });
                    }
                }
            }
            if last_depth {
                continue;
            }
            for &connector in &params.connectors {
                if partial.tokens.contains(&connector) || connector == params.token_out {
                    continue;
                }
                let top = best.entry(connector).or_default();
                // Pools in order of the most they could pay (amount × marginal rate at zero size,
                // which bounds a concave output); once `beam` partials reach the connector, a pool
                // whose bound is below the beam-th best amount cannot enter the beam and is not
                // swapped. The ones swapped are kept in edge order, so the beam is the same.
                let hops: Vec<Hop> = usable(market, params, here, connector).copied().collect();
                let bounds: Vec<Option<f64>> = hops.iter().map(|hop| output_bound(market, hop, partial.amount)).collect();
                let mut by_bound: Vec<usize> = (0..hops.len()).collect();
                by_bound.sort_by(|&a, &b| bounds[b].unwrap_or(f64::INFINITY).total_cmp(&bounds[a].unwrap_or(f64::INFINITY)));
                let mut steps: Vec<(usize, Partial)> = Vec::new();
                for k in by_bound {
                    if let (true, Some(bound), Some(needed)) = (skip_by_bound, bounds[k], top.get(params.beam - 1)) {
                        if bound < f64::from(needed) {
                            break;
                        }
                    }
                    if let Some(step) = extend(market, partial, hops[k], connector) {
                        enter(top, step.amount, params.beam);
                        steps.push((k, step));
                    }
                }
                steps.sort_by_key(|(k, _)| *k);
                next.entry(connector).or_default().extend(steps.into_iter().map(|(_, step)| step));
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
}

fn usable<'m>(market: &'m Market, params: &SearchParams, from: TokenIdx, to: TokenIdx) -> impl Iterator<Item = &'m Hop> + 'm {
    let dexes = params.dexes;
    market.edge(from, to).iter().filter(move |hop| dexes.allows(market.pool(hop.pool).dex))
}

/// An upper bound on what `hop` pays for `amount`: the amount at the pool's marginal rate at zero
/// size (fee included), which bounds every concave output, with room for float rounding. None when
/// the rate says nothing (a concentrated pool with no liquidity at its price can still pay more
/// once the swap reaches liquidity).
fn output_bound(market: &Market, hop: &Hop, amount: U256) -> Option<f64> {
    let rate = market.pool(hop.pool).state.spot_price(hop.token_in as usize, hop.token_out as usize);
    (rate > 0.0 && rate.is_finite()).then(|| f64::from(amount) * rate * (1.0 + 1e-9) + 1.0)
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
fn extend(market: &Market, partial: &Partial, hop: Hop, to: TokenIdx) -> Option<Partial> {
    let entry = market.pool(hop.pool);
    let (outcome, _) = entry.state.apply(hop.token_in as usize, hop.token_out as usize, partial.amount).ok()?;
    let mut tokens = partial.tokens.clone();
    tokens.push(to);
    let mut hops = partial.hops.clone();
    hops.push(hop);
    Some(Partial { tokens, hops, amount: outcome.amount_out, gas: partial.gas + entry.spec.leg_gas_units(&outcome) })
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

/// The paths of both searches (the full amount's first, then the probe's new ones), each with its
/// quote at both amounts: taken from the search that reached it, computed for the other.
pub fn evaluate(market: &Market, at_full: Vec<Found>, at_probe: Vec<Found>, amount_in: U256, probe_amount: Option<U256>) -> Vec<Evaluated> {
    let probe_of = |path: &Path| probe_amount.and_then(|p| quote_path(market, path, p).ok().map(|(out, _)| out));
    let mut evaluated: Vec<Evaluated> = at_full
        .into_iter()
        .map(|found| {
            let probe = at_probe.iter().find(|p| p.path.hops == found.path.hops).map(|p| p.out).or_else(|| probe_of(&found.path));
            Evaluated { full: Some((found.out, found.gas)), probe, path: found.path }
        })
        .collect();
    for found in at_probe {
        if !evaluated.iter().any(|e| e.path.hops == found.path.hops) {
            let full = quote_path(market, &found.path, amount_in).ok();
            evaluated.push(Evaluated { full, probe: Some(found.out), path: found.path });
        }
    }
    evaluated
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::test_market::{addr, cp_pool, market_of, Rng};

    #[test]
    fn skipping_by_bound_finds_exactly_what_the_full_search_finds() {
        let mut rng = Rng(0x5eed_0b0d);
        for case in 0..40 {
            let tokens: Vec<_> = (1..=6).map(addr).collect();
            let pools = (0..60u8)
                .map(|id| {
                    let a = rng.range(0, 6) as usize;
                    let b = (a + 1 + rng.range(0, 5) as usize) % 6;
                    let dex = if rng.range(0, 2) == 0 { "UNIV2" } else { "PANCAKE_V2" };
                    cp_pool(id, dex, tokens[a], tokens[b], rng.log_amount(18, 24), rng.log_amount(18, 24))
                })
                .collect();
            let market = market_of(pools);
            let index = |n: usize| market.token(&tokens[n]).unwrap();
            let params = SearchParams {
                token_in: index(0),
                token_out: index(1),
                amount_in: U256::from(rng.log_amount(17, 23)),
                max_hops: 3,
                connectors: (2..6).map(index).collect(),
                dexes: DexMask::ALL,
                beam: 2,
            };
            let (mut skipping, mut full) = (Vec::new(), Vec::new());
            beam_search(&market, &params, params.amount_in, &mut skipping, true);
            beam_search(&market, &params, params.amount_in, &mut full, false);
            let key = |f: &Vec<Found>| f.iter().map(|f| (f.path.hops.clone(), f.out, f.gas)).collect::<Vec<_>>();
            assert_eq!(key(&skipping), key(&full), "case {case}");
        }
    }
}
