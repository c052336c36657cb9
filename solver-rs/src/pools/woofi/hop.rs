//! The vault's constraint per hop of a plan, beside its joint budget (`joint.rs`): the swaps a
//! plan makes through the vault at one hop pay out, valued at the oracle's prices now P over the
//! joint budget's keeps k, at most their inputs valued at P times the most the oracle's prices
//! can move in the block, whatever the plan's other hops trade and in whatever order.
//!
//! Why: each swap on its own pays at most its input at the price the oracle then holds with γ = 0,
//! less the spread and the fee (`bound.rs`), and that price lies in the interval the oracle can
//! reach in the block ([`super::bound`]'s `price_interval`; as a ratio to P, r = P/p in
//! [r_min, r_max], the joint budget's), whichever swaps of other hops came before it. So a swap of
//! `in` of t for `out` of u obeys P_u·out/k_u ≤ F(t, u)·P_t·in, with, per raw unit and the
//! spreads now (they only widen in a block):
//! - a base b sold for quote: F = (1 − s_b)(1 − f_b)/(r_min·k_quote);
//! - quote for a base b (the fee off the input): F = (1 − f_b)(1 − s_b)·r_max/k_b;
//! - base b₁ for base b₂ (half the wider spread on both halves, the wider fee on the quote
//!   between): F = (1 − h)²(1 − f)·r_max(b₂)/(r_min(b₁)·k_{b₂});
//!
//! and a hop's swaps, summed, obey Σ_t w_t·P_t·in_t − Σ_u P_u·out_u/k_u ≥ −slack with
//! w_t = max_u F(t, u), the slack the fee's floor (one raw quote unit a swap, worth up to r_max/k
//! of the quote) of up to `swaps` swaps. The joint budget charges a plan's swaps as one; this
//! charges each hop's apart, so a withdrawal at one hop cannot be funded by a deposit at another.
//! `joint_tests.rs` checks it on the joint budget's random runs, each swap given a random hop.

use super::joint::{base_terms, gamma_max, JointBudget};
use super::{WoofiPool, E18};
use crate::math::U256;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::pooled_vault_hop::{HopRoom, HopTerm};

fn real(x: U256) -> f64 {
    f64::from(x)
}

/// One hop's constraint over the trader's raw flows through the vault at that hop:
/// Σ_t weight_t·P_t·in_t − Σ_u P_u·out_u/k_u ≥ −slack, with P and k the joint budget's.
#[derive(Clone, Debug, PartialEq)]
pub struct HopBudget {
    /// w_t ≥ what the oracle's room in the block lets a unit of t's value at P pay out (module
    /// docs), per coin in the vault's order.
    pub weight: Vec<f64>,
    /// Raw quote units: the fee's floors of the hop's swaps.
    pub slack: f64,
}

/// The per-hop constraint of `pool` for up to `swaps` swaps at one hop, on the prices and keeps
/// of its joint budget `joint` (module docs); None when the oracle refuses a base now.
pub fn hop_budget(pool: &WoofiPool, joint: &JointBudget, swaps: u32) -> Option<HopBudget> {
    let n = pool.token_count();
    if joint.coins.len() != n {
        return None;
    }
    let keep = |x: f64| (1.0 - x).max(0.0);
    let spread = |b: usize| pool.oracle(b).ok().map(|o| real(o.spread) / real(E18));
    let fee = |t: usize| pool.token(t).ok().map(|t| real(t.fee_rate) / 1e5);
    // Per base: (r_min, r_max), 1 for the quote token's slot (unused).
    let mut ends = vec![(1.0, 1.0); n];
    for (b, end) in ends.iter_mut().enumerate().skip(1) {
        let t = base_terms(pool, b)?;
        *end = (t.r_min, t.r_max);
    }
    let k = |u: usize| joint.coins[u].keep;
    let pays = |t: usize, u: usize| -> Option<f64> {
        Some(match (t, u) {
            (0, b) => keep(fee(b)?) * keep(spread(b)?) * ends[b].1 / k(b),
            (b, 0) => keep(spread(b)?) * keep(fee(b)?) / (ends[b].0 * k(0)),
            (b1, b2) => {
                // The contract floors the half spread: up to half a unit of 1e18 below.
                let h = (spread(b1)?.max(spread(b2)?) - 1.0 / real(E18)).max(0.0) / 2.0;
                let f = fee(b1)?.max(fee(b2)?);
                keep(h) * keep(h) * keep(f) * ends[b2].1 / (ends[b1].0 * k(b2))
            }
        })
    };
    let mut weight = vec![0.0f64; n];
    for (t, w) in weight.iter_mut().enumerate() {
        for u in (0..n).filter(|&u| u != t) {
            *w = w.max(pays(t, u)?);
        }
    }
    // The fee's floor: a raw quote unit more a swap, worth up to the dearest r_max/k.
    let per_swap = (1..n).map(|b| ends[b].1 / k(b)).fold(1.0 / k(0), f64::max);
    let slack = f64::from(swaps) * (2.0 * per_swap + 1.0);
    (weight.iter().all(|w| w.is_finite() && *w > 0.0) && slack.is_finite())
        .then_some(HopBudget { weight, slack })
}

/// The per-hop constraint as the convex bound's per-hop term beside the vault's pooled budget
/// (`joint::pooled_budget`, whose units are raw quote at P): a raw unit of t deposited at a hop
/// brings it w_t·P_t; a withdrawal costs it what it costs the budget (P_u/k_u). None where the
/// joint budget is (`convex/pooled_vault_hop.rs`).
pub(super) fn pooled_hops(pool: &WoofiPool) -> Option<HopTerm> {
    let joint = super::joint::joint_budget(pool, MAX_SWAPS_PER_POOL)?;
    let hop = hop_budget(pool, &joint, MAX_SWAPS_PER_POOL)?;
    let deposit = hop.weight.iter().zip(&joint.coins).map(|(w, c)| w * c.price).collect();
    // The swaps' input guards: a plan's swaps selling t take at most this much in all.
    let n = pool.token_count();
    let cap = (0..n)
        .map(|t| {
            let most = (0..n)
                .filter(|&u| u != t)
                .filter_map(|u| super::bound::input_cap(pool, t, u))
                .fold(0.0f64, f64::max);
            most * f64::from(MAX_SWAPS_PER_POOL)
        })
        .collect();
    let room = hop_room(pool, &joint, MAX_SWAPS_PER_POOL);
    Some(HopTerm { deposit, slack: hop.slack, cap, room })
}

/// What [`hop_budget`]'s weights are made of (`HopRoom`): per pair the weight before its two r
/// factors, in budget units per raw unit (P_t times the module docs' F(t, u) over r_max(u)/r_min(t)),
/// and per base how far a plan's own swaps move its price. A sale of `a` base at p has
/// γ = a·p/per_gamma and posts p·(1 − γ) floored; a purchase with `q` quote has γ = q/per_gamma
/// and posts p/(1 − γ) floored (`mod.rs`): |Δln p| ≤ γ/(1 − γ_max) plus a price unit over the
/// lowest price per swap, and p moves only through the vault's own swaps. So over a plan whose
/// swaps carry `Q` raw quote of notional in all (a base to base swap's quote between is at most
/// its sale's), each base's ln p stays within Q/(per_gamma·(1 − γ_max)) + swaps·2/lowest of now.
fn hop_room(pool: &WoofiPool, joint: &JointBudget, swaps: u32) -> Option<HopRoom> {
    let n = pool.token_count();
    let keep = |x: f64| (1.0 - x).max(0.0);
    let spread = |b: usize| pool.oracle(b).ok().map(|o| real(o.spread) / real(E18));
    let fee = |t: usize| pool.token(t).ok().map(|t| real(t.fee_rate) / 1e5);
    let k = |u: usize| joint.coins[u].keep;
    let mut pays = vec![vec![0.0; n]; n];
    for (t, row) in pays.iter_mut().enumerate() {
        for u in (0..n).filter(|&u| u != t) {
            let factor = match (t, u) {
                (0, b) => keep(fee(b)?) * keep(spread(b)?) / k(b),
                (b, 0) => keep(spread(b)?) * keep(fee(b)?) / k(0),
                (b1, b2) => {
                    let h = (spread(b1)?.max(spread(b2)?) - 1.0 / real(E18)).max(0.0) / 2.0;
                    keep(h) * keep(h) * keep(fee(b1)?.max(fee(b2)?)) / k(b2)
                }
            };
            row[u] = factor * joint.coins[t].price;
        }
    }
    let (mut ends, mut per_move) = (vec![(1.0, 1.0); n], vec![0.0; n]);
    let (mut drift, mut notional) = (vec![0.0; n], vec![1.0; n]);
    for b in 1..n {
        let terms = base_terms(pool, b)?;
        ends[b] = (terms.r_min, terms.r_max);
        let (_, hi) = super::bound::price_interval(pool, b)?;
        notional[b] = joint.coins[b].price * hi / terms.price_now;
        if terms.moves {
            per_move[b] = terms.per_gamma * (1.0 - gamma_max(pool, b, &terms)?);
            drift[b] = f64::from(swaps) * 2.0 / terms.lowest;
        }
    }
    Some(HopRoom { pays, ends, per_move, drift, notional })
}

#[cfg(test)]
#[path = "hop_tests.rs"]
mod tests;
