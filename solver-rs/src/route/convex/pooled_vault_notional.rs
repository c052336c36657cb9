//! How much notional a plan can carry through a graph's vaults (WOOFi's: `pools/woofi/hop.rs`), the
//! room its per-hop weights take (`pooled_vault_layers.rs`, `HopRoom::deposit_within`).
//!
//! Layer by layer, the most of each copy a plan can hold: tokenIn's amount, then per arc its curve
//! at the most its tail holds (which bounds all its swaps' output); per vault and hop what the
//! hop's deposits fund (each swap pays at most its own input's worth, whatever the other hops
//! traded: `hop.rs`); per other pooled venue (a Curve pool) what its budget lets all the plan's
//! deposits into it fund ([`most_paid`]). That last is over the whole plan, not the layers before:
//! the router runs route after route, so a route's first swap through a Curve pool sees what an
//! earlier route deposited at its third hop. Its deposits are known only once every pooled venue
//! whose outputs can reach them is bounded, so the layers are propagated again per round of such
//! venues ([`notional_bound`]); a pooled venue whose outputs can reach its own deposits, or those
//! of another that reaches it, keeps its outputs unbounded (the notional is then infinite where
//! they reach a vault).

use super::graph::{Graph, Head, Venue};
use super::pooled::Budget;
use super::pooled_vault_hop::PooledHops;

/// A venue's linear budget and per-hop term, where it has both (WOOFi's vault).
pub(super) fn vault_of(venue: &Venue) -> Option<(&Budget, &PooledHops)> {
    let pooled = venue.pooled.as_ref().filter(|p| p.budget.is_linear())?;
    Some((&pooled.budget, pooled.hops.as_ref()?))
}

/// A pooled venue bounded by its budget alone: pooled, and not a vault with a per-hop room.
fn by_budget(venue: &Venue) -> Option<&Budget> {
    let vault = vault_of(venue).is_some_and(|(_, h)| h.term.room.is_some());
    venue.pooled.as_ref().filter(|_| !vault).map(|p| &p.budget)
}

/// The most raw quote of notional a plan of `amount_in` can carry through the graph's vaults in
/// all, each vault deposit valued at its coin's highest price, or infinity (module docs).
pub fn notional_bound(graph: &Graph, amount_in: f64) -> f64 {
    let feeds = feeds(graph);
    let pooled: Vec<usize> =
        (0..graph.venues.len()).filter(|&v| by_budget(&graph.venues[v]).is_some()).collect();
    // Per pooled venue, once bounded: the plan's deposits into it in all, raw per coin.
    let mut bounded: Vec<Option<Vec<f64>>> = vec![None; graph.venues.len()];
    loop {
        let (notional, deposits) = propagate(graph, amount_in, &bounded);
        // A venue's deposits bound it once every pooled venue that reaches them was bounded
        // before this round (itself included: one that reaches its own stays unbounded).
        let ready: Vec<usize> = pooled
            .iter()
            .copied()
            .filter(|&v| bounded[v].is_none())
            .filter(|&v| !pooled.iter().any(|&w| feeds[w][v] && bounded[w].is_none()))
            .filter(|&v| deposits[v].iter().all(|d| d.is_finite()))
            .collect();
        if ready.is_empty() {
            return if notional.is_finite() { notional } else { f64::INFINITY };
        }
        for v in ready {
            bounded[v] = Some(deposits[v].clone());
        }
    }
}

/// Per venue v, per venue w: whether a copy v pays into reaches, along the graph's arcs, a copy
/// that tenders to w.
fn feeds(graph: &Graph) -> Vec<Vec<bool>> {
    let copies = graph.copies.len();
    // reach[c][d]: d is c or after it on some path. Arcs run from a layer to the next, so the
    // copies of the deepest layer are done first.
    let mut reach = vec![vec![false; copies]; copies];
    let mut order: Vec<usize> = (0..copies).collect();
    order.sort_by_key(|&c| std::cmp::Reverse(graph.copies[c].layer));
    for c in order {
        reach[c][c] = true;
        for arc in graph.arcs.iter().filter(|a| a.from == c) {
            if let Head::Copy(d) = arc.to {
                let after = reach[d].clone();
                reach[c].iter_mut().zip(after).for_each(|(r, a)| *r |= a);
            }
        }
    }
    let venues = &graph.venues;
    let ends = |v: usize, tail: bool| -> Vec<usize> {
        let mut at = Vec::new();
        for &a in &venues[v].arcs {
            let arc = graph.arcs[a];
            match (tail, arc.to) {
                (true, _) => at.push(arc.from),
                (false, Head::Copy(d)) => at.push(d),
                (false, Head::Out) => {}
            }
        }
        at
    };
    (0..venues.len())
        .map(|v| {
            let paid = ends(v, false);
            (0..venues.len())
                .map(|w| ends(w, true).iter().any(|&t| paid.iter().any(|&r| reach[r][t])))
                .collect()
        })
        .collect()
}

/// One pass over the layers: the notional through the vaults, and per venue the plan's deposits
/// into it in all (raw, per coin; empty for a venue without a budget), with the pooled venues
/// `bounded` names paying at most what those deposits fund and the others without bound.
fn propagate(graph: &Graph, amount_in: f64, bounded: &[Option<Vec<f64>>]) -> (f64, Vec<Vec<f64>>) {
    let mut most = vec![0.0f64; graph.copies.len()];
    most[0] = amount_in;
    let mut notional = 0.0;
    let mut deposits: Vec<Vec<f64>> = graph
        .venues
        .iter()
        .map(|v| vec![0.0; v.pooled.as_ref().map_or(0, |p| p.budget.coins.len())])
        .collect();
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    for layer in 0..=top {
        // Per copy of the next layer, from this layer's non-pooled arcs: the sum of their curves
        // at the most their tails hold, their allowances, and the most any first rate pays on it.
        let mut pays = vec![(0.0f64, 0.0f64, 0.0f64); graph.copies.len()];
        for (v, venue) in graph.venues.iter().enumerate() {
            let here: Vec<usize> = venue
                .arcs
                .iter()
                .copied()
                .filter(|&a| graph.copies[graph.arcs[a].from].layer == layer)
                .collect();
            if here.is_empty() {
                continue;
            }
            if venue.pooled.is_none() {
                for a in here {
                    let arc = graph.arcs[a];
                    if let Head::Copy(to) = arc.to {
                        let side = &graph.sides[arc.side];
                        let held = most[arc.from];
                        // Parallel pools out of one copy share what it holds: by concavity each
                        // pays at most its rounding allowance plus its first rate on its share.
                        pays[to].0 += side.curve.value(held);
                        pays[to].1 += side.at_zero;
                        pays[to].2 = pays[to].2.max(side.first_rate * held.max(1.0));
                    }
                }
                continue;
            }
            tender(graph, &here, &most, &mut deposits[v]);
            if let Some(budget) = by_budget(venue) {
                for (to, u) in received(graph, &here) {
                    most[to] +=
                        bounded[v].as_ref().map_or(f64::INFINITY, |all| most_paid(budget, all, u));
                }
                continue;
            }
            let Some((budget, hops)) = vault_of(venue) else { continue };
            let Some(room) = hops.term.room.as_ref() else { continue };
            let mut funded = hops.term.slack.max(0.0);
            let mut tendered = Vec::new();
            for &a in &here {
                let arc = graph.arcs[a];
                if !tendered.contains(&arc.from) {
                    tendered.push(arc.from);
                    let t = usize::from(arc.hop.token_in);
                    funded += hops.term.deposit[t] * most[arc.from];
                    notional += room.notional[t] * most[arc.from];
                }
            }
            for (to, u) in received(graph, &here) {
                let coin = &budget.coins[u];
                most[to] += funded * coin.keep / coin.scale;
            }
        }
        for (held, (curves, allowances, rate)) in most.iter_mut().zip(pays) {
            *held += curves.min(allowances + rate);
        }
    }
    (notional, deposits)
}

/// Adds to `deposited` (raw, per coin) the most each copy tendering to the venue at `here` holds.
fn tender(graph: &Graph, here: &[usize], most: &[f64], deposited: &mut [f64]) {
    let mut tendered = Vec::new();
    for &a in here {
        let arc = graph.arcs[a];
        if !tendered.contains(&arc.from) {
            tendered.push(arc.from);
            deposited[usize::from(arc.hop.token_in)] += most[arc.from];
        }
    }
}

/// The copies the arcs `here` pay into, once each, with the venue's coin each receives.
fn received(graph: &Graph, here: &[usize]) -> Vec<(usize, usize)> {
    let mut at: Vec<(usize, usize)> = Vec::new();
    for &a in here {
        let arc = graph.arcs[a];
        if let Head::Copy(to) = arc.to {
            if !at.iter().any(|&(c, _)| c == to) {
                at.push((to, usize::from(arc.hop.token_out)));
            }
        }
    }
    at
}

/// The most raw units of coin `u` a venue priced by `budget` pays out over any run of swaps whose
/// deposits are at most `deposited` (raw, per coin): per coin t deposited, the most its deposit
/// pays in u alone (`Budget::pair_value`: concave in the deposit and at least its allowance at 0,
/// so the sum over t bounds their joint deposit's), plus u's own deposits back. Infinity where
/// that is not a number, and where a budget with a second pair (a Curve meta pool) has deposits
/// of more than one other coin: its pair value is the least of two budgets', and a sum of leasts
/// may fall below the least of the sums.
pub fn most_paid(budget: &Budget, deposited: &[f64], u: usize) -> f64 {
    let coins: Vec<usize> = (0..deposited.len().min(budget.coins.len()))
        .filter(|&t| t != u && deposited[t] > 0.0)
        .collect();
    if budget.second.is_some() && coins.len() > 1 {
        return f64::INFINITY;
    }
    // With no other coin deposited, what the budget's slack and u's allowance alone pay.
    let alone = (0..budget.coins.len()).find(|&t| t != u).map(|t| budget.pair_value(t, u, 0.0));
    let funded: f64 = if coins.is_empty() {
        alone.unwrap_or(0.0)
    } else {
        coins.iter().map(|&t| budget.pair_value(t, u, deposited[t])).sum()
    };
    let paid = funded + deposited.get(u).copied().unwrap_or(0.0);
    if paid.is_finite() && paid >= 0.0 {
        paid
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
#[path = "pooled_vault_notional_tests.rs"]
mod tests;
