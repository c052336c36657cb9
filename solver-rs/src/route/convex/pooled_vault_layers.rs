//! The graph the solve prices a joint-budget venue (WOOFi's vault, `pools/woofi/joint.rs`) on hop
//! by hop: the same scope with each such venue split into one venue per hop (its arcs grouped by
//! the tendering copy's layer), each with the whole budget.
//!
//! Why: the joint term tenders each coin from its cheapest copy and gives it at its dearest head
//! (`dual.rs`, `pooled_term`), so the budget may take a deposit at a deep layer and pay it out at a
//! shallower one: the vault lends a hop what a later hop repays, which no sequence of swaps can.
//! Two market venues that trade a pair of the vault's bases apart from its oracle (UNIV3 WETH →
//! cbETH a layer down, cbETH → WETH another) then close a loop through the vault's lending, an
//! arbitrage as large as their depth: cbBTC → USDC 3-hop 0.1 cbBTC on the live market converged
//! 2,667 bps above the plan (`pooled_vault_layers_tests.rs`). Split by hop, a venue's deposits fund
//! only its own hop's withdrawals and no loop closes.
//!
//! Each hop's venue is priced by the vault's per-hop constraint (`pools/woofi/hop.rs`), its weights
//! taken at the room the plan's own notional through the vault leaves the oracle
//! (`HopRoom::deposit_within`, `pooled_vault_notional.rs`): every hop of every plan obeys it, so
//! the split graph is a relaxation of its own and its certificate bounds the plans (`bound`).

use super::graph::{Graph, Pooled, Scope, Venue};
use super::pooled::{Budget, Coin};
use super::pooled_vault_hop::HopTerm;
use super::pooled_vault_notional::{notional_bound, vault_of};
use crate::market::Market;
use crate::math::U256;
use crate::route::clock::Deadline;

/// `scope`'s graph with every venue `graph` prices by a linear (joint) budget with a per-hop term
/// split into one venue per hop, each priced by its hop's budget for a plan of `amount_in` raw
/// units of tokenIn ([`hop_budget`] at [`notional_bound`]); None when `graph` has no such venue or
/// past `deadline` (as [`Graph::build_before`]). Its copies are `graph`'s (the same build), so its
/// prices are `graph`'s.
pub fn per_hop(
    market: &Market,
    scope: &Scope,
    graph: &Graph,
    amount_in: f64,
    deadline: &Deadline,
) -> Option<Graph> {
    if !graph.venues.iter().any(|v| vault_of(v).is_some()) {
        return None;
    }
    let notional = notional_bound(graph, amount_in);
    let mut split = Graph::build_before(market, scope, deadline).ok()?;
    if split.copies != graph.copies {
        return None;
    }
    split_by_hop(&mut split, notional);
    Some(split)
}

/// The per-hop graph's certified bound for `amount_in` (its own solve until `deadline`), where
/// `graph` has a vault with a per-hop term: a third bound beside the joint and per-side graphs'
/// (`certificate::least_certified`), kept where it is the least. Not a start for the joint solve:
/// from its prices the joint graph's Newton ends far above where it ends from the per-side
/// graph's (route quality's re-priced run: 23 trades worse by more than 5 bps, ten above 1,000).
pub fn bound(
    market: &Market,
    scope: &Scope,
    graph: &Graph,
    amount_in: f64,
    deadline: &Deadline,
) -> Option<U256> {
    let split = per_hop(market, scope, graph, amount_in, deadline)?;
    let dual = super::solve::minimise(&split, amount_in, deadline);
    super::certificate::certified_bound(&split, &dual.prices, amount_in)
}

/// Splits every vault venue of `graph` into one venue per layer its arcs leave from, each priced by
/// its hop's budget for swaps of at most `notional` raw quote in all.
fn split_by_hop(graph: &mut Graph, notional: f64) {
    for v in 0..graph.venues.len() {
        let Some((joint, hops)) = vault_of(&graph.venues[v]) else { continue };
        let deposit = hops.term.room.as_ref().and_then(|r| r.deposit_within(notional));
        let term = HopTerm {
            deposit: deposit.unwrap_or_else(|| hops.term.deposit.clone()),
            ..hops.term.clone()
        };
        let Some(budget) = hop_budget(joint, &term) else { continue };
        let mut layers: Vec<usize> =
            graph.venues[v].arcs.iter().map(|&a| graph.copies[graph.arcs[a].from].layer).collect();
        layers.sort_unstable();
        layers.dedup();
        let arcs = std::mem::take(&mut graph.venues[v].arcs);
        for (k, &layer) in layers.iter().enumerate() {
            let group: Vec<usize> = arcs
                .iter()
                .copied()
                .filter(|&a| graph.copies[graph.arcs[a].from].layer == layer)
                .collect();
            let index = if k == 0 { v } else { graph.venues.len() };
            for &a in &group {
                graph.arcs[a].venue = index;
            }
            let coins = budget.coins.len();
            let mut pooled = Pooled {
                budget: budget.clone(),
                tenders: vec![Vec::new(); coins],
                receives: vec![Vec::new(); coins],
                // Its term is the hop's own: no per-hop term beside it.
                hops: None,
            };
            for &a in &group {
                let arc = graph.arcs[a];
                let (t, u) = (usize::from(arc.hop.token_in), usize::from(arc.hop.token_out));
                if !pooled.tenders[t].contains(&arc.from) {
                    pooled.tenders[t].push(arc.from);
                }
                if !pooled.receives[u].contains(&arc.to) {
                    pooled.receives[u].push(arc.to);
                }
            }
            let venue = Venue { arcs: group, pooled: Some(pooled) };
            if k == 0 {
                graph.venues[v] = venue;
            } else {
                graph.venues.push(venue);
            }
        }
    }
}

/// One hop's budget (the per-hop constraint of `pools/woofi/hop.rs` as a linear budget in the joint
/// budget's units): a raw unit of t deposited brings the hop's weight of it (`term.deposit`), a
/// withdrawal costs what it costs the joint budget (P_u/k_u a raw unit), the slack the hop's, and
/// each coin's withdrawal at most its reserve and all a plan can deposit of it before (`term.cap`,
/// the vault pays from what it holds then). None when the term does not match the budget.
fn hop_budget(joint: &Budget, term: &HopTerm) -> Option<Budget> {
    if term.deposit.len() != joint.coins.len() || term.cap.len() != joint.coins.len() {
        return None;
    }
    let coins = joint
        .coins
        .iter()
        .zip(term.deposit.iter().zip(&term.cap))
        .map(|(c, (&weight, &cap))| {
            // Raw units out per budget unit withdrawn: the joint budget's keep/scale (k/P).
            let out_per_unit = c.keep / c.scale;
            let coin = Coin {
                x: c.x + cap / out_per_unit,
                scale: weight,
                keep: weight * out_per_unit,
                allowance: c.allowance,
                linear: true,
            };
            let finite = [coin.x, coin.scale, coin.keep].iter().all(|v| v.is_finite() && *v > 0.0);
            finite.then_some(coin)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Budget { coins, kappa: 0.0, slack: term.slack.max(0.0), second: None })
}

#[cfg(test)]
#[path = "pooled_vault_layers_tests.rs"]
mod tests;
