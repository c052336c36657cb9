//! The route Fynd executes from a water-filling allocation: a tree, replayed exactly.
//!
//! Fynd assembles every split (`split_primitives::build_split_route`) by merging the hops its
//! paths share (same pool, same direction) into one swap whose share is the sum of theirs, then
//! running the swaps token by token in topological order (Kahn's algorithm): a token's swaps wait
//! until every swap delivering it has run, then the whole amount collected there is re-split across
//! its outgoing swaps in proportion to their shares. Shares are normalised per token and each
//! part is floor(total · ⌊share · 10¹⁸⌋ / 10¹⁸), except the last swap of the token (smallest share)
//! which takes the remainder (tycho-execution's convention), so nothing is lost to rounding.
//! Swaps at a token run largest share first, ties by pool id. Paths that cross two middle tokens in
//! opposite orders make a cycle no such order can run: the allocation is dropped.
//!
//! Here every swap is an exact `apply` on one view of the pools, in that order, so the tree's
//! output is what our pool models pay for it, to the wei.

use super::view::{swap, View};
use crate::market::{Hop, Market, TokenIdx};
use crate::math::full_math::mul_div;
use crate::math::U256;
use crate::route::path::Path;
use std::collections::{BTreeMap, VecDeque};

/// 10¹⁸: shares are fixed-point with 18 decimals when an amount is split (Fynd's `split_amount`).
const SHARE_SCALE: u64 = 1_000_000_000_000_000_000;

/// One merged swap of the tree, executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeSwap {
    pub hop: Hop,
    /// Raw units of the hop's input token.
    pub amount_in: U256,
    /// Raw units of the hop's output token.
    pub amount_out: U256,
    pub gas_units: u64,
}

/// An executed tree: its swaps in execution order, what reached tokenOut and the gas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    pub swaps: Vec<TreeSwap>,
    /// Raw units of tokenOut.
    pub amount_out: U256,
    pub gas_units: u64,
    /// The most hops any unit can travel from tokenIn to tokenOut: merging at a token collects
    /// what arrived after different numbers of hops and sends it all on, so a tree of paths of at
    /// most k hops can carry some units further than k (2k − 2 for k ≥ 2).
    pub longest_walk: usize,
}

/// A merged hop before execution.
struct Merged {
    hop: Hop,
    from: TokenIdx,
    to: TokenIdx,
    share: f64,
}

/// Builds and runs the tree of `shares` (paths with the fraction of amountIn each carries), all of
/// `amount_in` entering at the paths' first token. None when the merged swaps form a cycle, or a
/// pool refuses its swap (Fynd drops such a candidate).
pub fn execute(market: &Market, shares: &[(&Path, f64)], amount_in: U256) -> Option<Tree> {
    let start = shares.first()?.0.tokens[0];
    let mut merged: Vec<Merged> = Vec::new();
    for (path, share) in shares {
        for (hop, ends) in path.hops.iter().zip(path.tokens.windows(2)) {
            match merged.iter_mut().find(|m| m.hop == *hop) {
                Some(m) => m.share += share,
                None => {
                    merged.push(Merged { hop: *hop, from: ends[0], to: ends[1], share: *share })
                }
            }
        }
    }
    let mut by_token: BTreeMap<TokenIdx, Vec<Merged>> = BTreeMap::new();
    let mut in_degree: BTreeMap<TokenIdx, usize> = BTreeMap::new();
    for m in merged {
        in_degree.entry(m.from).or_insert(0);
        let degree = in_degree.entry(m.to).or_insert(0);
        *degree = degree.saturating_add(1);
        by_token.entry(m.from).or_default().push(m);
    }
    for swaps in by_token.values_mut() {
        swaps.sort_by(|a, b| {
            b.share
                .total_cmp(&a.share)
                .then_with(|| market.pool(a.hop.pool).id.cmp(&market.pool(b.hop.pool).id))
        });
    }

    let mut view = View::default();
    let mut available: BTreeMap<TokenIdx, U256> = BTreeMap::from([(start, amount_in)]);
    let mut ready = VecDeque::from([start]);
    let mut executed = Vec::new();
    let mut gas_units = 0u64;
    let mut hops_to: BTreeMap<TokenIdx, usize> = BTreeMap::from([(start, 0)]);
    while let Some(token) = ready.pop_front() {
        let Some(swaps) = by_token.remove(&token) else { continue };
        let total = available.get(&token).copied().unwrap_or(U256::ZERO);
        for (m, amount) in swaps.iter().zip(split(total, &swaps)) {
            let (out, gas) = if amount.is_zero() {
                // A share too small to be worth one raw unit moves nothing.
                (U256::ZERO, 0)
            } else {
                let (out, gas, next) = swap(market, view.state(market, m.hop.pool), m.hop, amount)?;
                view.commit(vec![(m.hop.pool, next)]);
                (out, gas)
            };
            let reached = available.entry(m.to).or_insert(U256::ZERO);
            *reached = reached.checked_add(out)?;
            gas_units = gas_units.saturating_add(gas);
            let depth = hops_to[&token].saturating_add(1);
            hops_to.entry(m.to).and_modify(|d| *d = (*d).max(depth)).or_insert(depth);
            executed.push(TreeSwap {
                hop: m.hop,
                amount_in: amount,
                amount_out: out,
                gas_units: gas,
            });
            let degree = in_degree.get_mut(&m.to).expect("every merged hop's head has a degree");
            *degree = degree.saturating_sub(1);
            if *degree == 0 {
                ready.push_back(m.to);
            }
        }
    }
    if !by_token.is_empty() {
        return None;
    }
    let end = shares[0].0.tokens.last().copied()?;
    Some(Tree {
        amount_out: available.get(&end).copied().unwrap_or(U256::ZERO),
        swaps: executed,
        gas_units,
        longest_walk: hops_to[&end],
    })
}

/// Splits `total` across `swaps` by their normalised shares: every part but the last is
/// floor(total · ⌊share · 10¹⁸⌋ / 10¹⁸), the last takes what is left.
fn split(total: U256, swaps: &[Merged]) -> Vec<U256> {
    let sum: f64 = swaps.iter().map(|m| m.share).sum();
    let mut parts = Vec::with_capacity(swaps.len());
    let mut given = U256::ZERO;
    let Some((_, first)) = swaps.split_last() else { return parts };
    for m in first {
        let fraction = if sum > 0.0 { (m.share / sum).clamp(0.0, 1.0) } else { 0.0 };
        let numerator =
            U256::try_from((fraction * SHARE_SCALE as f64).floor()).unwrap_or(U256::ZERO);
        // Shares summing past 1 by a float rounding must not spend more than arrived.
        let part = mul_div(total, numerator, U256::from(SHARE_SCALE))
            .unwrap_or(U256::ZERO)
            .min(total.saturating_sub(given));
        given = given.saturating_add(part);
        parts.push(part);
    }
    parts.push(total.saturating_sub(given));
    parts
}
