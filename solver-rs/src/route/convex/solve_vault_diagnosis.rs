//! A trace of the dual's solve on the fixture's WOOFi vault cases (`pooled_vault_tests.rs`), the
//! vault's joint budget set: where it stops, with each copy's price and excess, the vault's term
//! and pairs, the corners read there, the venues' largest curvatures and the groups' valued
//! excesses, and g where the solve starts (every copy at its first unit's worth, made monotone)
//! and ends against the plan's out. `CASE=<index> cargo test --release -p solver-rs --features
//! reference --lib -- --ignored --nocapture diagnose_vault`; `JOINT=0`: the vault by its per-side
//! curves instead (the bound before `JOINT_BOUND` was on), to compare; `FROM_SIDES=1`: the
//! solve's two phases (`minimise_with`: Newton started where the per-side curves' solve ends)
//! rather than the warm start.

use super::{first_unit_prices, minimise};
use crate::address::Address;
use crate::route::clock::Deadline;
use crate::route::convex::conservation::{sold_at, DRIVEN};
use crate::route::convex::corners::{Corners, Joined};
use crate::route::convex::dual::{evaluate, monotone, pooled_term, Piece};
use crate::route::convex::graph::{Graph, Head};
use crate::route::convex::pooled::vault_tests::CASES;
use crate::route::convex::ties::{deeper_copies, locked_links, tie_groups};
use crate::route::test_market::devnet_tokens::{symbol as name, *};
use crate::route::test_market::{any_scope, bounded_quote, devnet_sampled_fresh};

fn kind(c: &crate::route::convex::curve::Curve) -> &'static str {
    use crate::route::convex::curve::Curve::*;
    match c {
        Hyperbola(_) => "hyperbola",
        Ranges(_) => "ranges",
        Stable(_) => "stable",
        Piecewise(_) => "piecewise",
        Pooled(_) => "pooled",
    }
}

/// The market traced: the dump `FIXTURE` names (`ROUTE_QUALITY_DUMP`), else the fresh fixture.
fn fixture_market() -> crate::market::Market {
    use crate::pools::input::PoolInput;
    let Ok(path) = std::env::var("FIXTURE") else { return devnet_sampled_fresh(&[]) };
    let pools: Vec<PoolInput> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    crate::route::test_market::market_of(pools)
}

/// The cases traced: those of the file `TRADES` names, a trade a line (`<tokenIn symbol>
/// <tokenOut symbol> <raw amountIn> <maxHops>`), else the fixture's vault cases.
fn listed_cases() -> Vec<([Address; 2], u128, usize)> {
    let Ok(path) = std::env::var("TRADES") else {
        let parse = |a: &str| Address::parse(a).unwrap();
        return CASES.iter().map(|&(i, o, raw, hops)| ([parse(i), parse(o)], raw, hops)).collect();
    };
    let symbol = |s: &str| {
        let found = SYMBOLS.iter().find(|(_, n)| *n == s).expect("a devnet symbol");
        Address::parse(found.0).unwrap()
    };
    let text = std::fs::read_to_string(path).unwrap();
    let line = |l: &str| {
        let f: Vec<&str> = l.split_whitespace().collect();
        ([symbol(f[0]), symbol(f[1])], f[2].parse().unwrap(), f[3].parse().unwrap())
    };
    text.lines().filter(|l| !l.trim().is_empty()).map(line).collect()
}

#[test]
#[ignore = "a trace"]
fn diagnose_vault() {
    let joint = std::env::var("JOINT").map_or(true, |v| v != "0");
    let _joint = crate::pools::woofi::joint_bound_in_tests(joint);
    let market = fixture_market();
    let only: Option<usize> = std::env::var("CASE").ok().and_then(|s| s.parse().ok());
    for (i, (trade, amount, hops)) in listed_cases().into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let scope = any_scope(&market, trade[0], trade[1], hops);
        let graph = Graph::build(&market, &scope).unwrap();
        let (raw, amount) = (amount, amount as f64);
        let dual = match std::env::var("FROM_SIDES").is_ok() {
            false => minimise(&graph, amount, &Deadline::never()),
            true => {
                // The solve's own two phases (`graph_sides.rs`): the per-side curves' solve, then
                // Newton on this graph from where it ends.
                let sides = super::super::graph_sides::per_side(
                    &market,
                    &scope,
                    &graph,
                    &Deadline::never(),
                );
                if let Some(sides) = &sides {
                    let apart = minimise(sides, amount, &Deadline::never()).prices;
                    eprintln!(
                        "  g at the per-side curves' end {:.6e}",
                        evaluate(&graph, &apart, amount, false).value
                    );
                }
                super::minimise_with(&graph, sides.as_ref(), amount, &Deadline::never())
            }
        };
        let prices = &dual.prices;
        let at = evaluate(&graph, prices, amount, false);
        let mut first = first_unit_prices(&graph);
        monotone(&graph, &mut first);
        let start = evaluate(&graph, &first, amount, false).value;
        let weth = Address::parse(WETH).unwrap();
        let ours = bounded_quote(&market, trade, raw, hops, weth).ours;
        eprintln!(
            "== case {i}: {}→{} {hops}-hop {amount:e}: g {:.6e} ({:.3e} times the plan's {ours:.6e}; at the first unit's prices {:.3e} times) converged {}",
            name(trade[0]),
            name(trade[1]),
            at.value,
            at.value / ours,
            start / ours,
            dual.converged
        );
        let label = |c: usize| {
            format!(
                "{}#{}@L{}",
                name(market.token_address(graph.copies[c].token)),
                c,
                graph.copies[c].layer
            )
        };
        let head = |h: Head| match h {
            Head::Copy(c) => label(c),
            Head::Out => "OUT".into(),
        };
        for (c, (price, excess)) in prices.iter().zip(&at.gradient).enumerate() {
            eprintln!("  {:<16} price {price:.9e} excess {excess:.6e}", label(c));
        }
        for (v, venue) in graph.venues.iter().enumerate() {
            if let Some(pooled) = &venue.pooled {
                let term = pooled_term(pooled, prices);
                eprintln!(
                    "  pooled venue {v} linear {} slack {}",
                    pooled.budget.is_linear(),
                    pooled.budget.slack
                );
                for t in 0..pooled.budget.coins.len() {
                    let c = &pooled.budget.coins[t];
                    eprintln!(
                        "    coin {t}: x {:.4e} scale {:.6e} keep {:.9} tender {:?} receive {:?} in {:.4e} out {:.4e} budget {:.4e}",
                        c.x, c.scale, c.keep / c.scale * c.scale,
                        term.tender[t].map(label), term.receive[t].map(head),
                        term.joint.inputs[t], term.joint.outputs[t], term.joint.budget[t]
                    );
                }
                for p in &term.pairs {
                    eprintln!("    pair {p:?}");
                }
            }
        }
        for b in &at.piecewise {
            let rate = prices[b.tender] / crate::route::convex::dual::head_price(prices, b.receive);
            let kind = match b.piece {
                Piece::Side(s) => format!("side {s}"),
                Piece::Linear { rate, tie, .. } => format!("linear rate {rate:.9e} tie {tie}"),
            };
            eprintln!(
                "  booked {} → {} at rate {rate:.9e}: in {:.4e} out {:.4e} ({kind})",
                label(b.tender),
                head(b.receive),
                b.response.input,
                b.response.output
            );
        }
        // Each venue's curvature in the scaled prices (π_tender²·slope/π_receive), largest first.
        let mut curved: Vec<(f64, String)> = Vec::new();
        for v in 0..graph.venues.len() {
            if graph.venues[v].pooled.is_some() {
                continue;
            }
            if let Some(crate::route::convex::dual::VenueTerm { trade, tender, receive, .. }) =
                crate::route::convex::dual::venue_term(&graph, v, prices)
            {
                let pr = crate::route::convex::dual::head_price(prices, receive);
                let k = trade.response.slope / pr * prices[tender] * prices[tender];
                let side = graph.arcs[trade.arc].side;
                curved.push((
                    k,
                    format!(
                        "venue {v} side {side} {} {} → {}: in {:.3e} out {:.3e} slope {:.3e}",
                        kind(&graph.sides[side].curve),
                        label(tender),
                        head(receive),
                        trade.response.input,
                        trade.response.output,
                        trade.response.slope
                    ),
                ));
            }
        }
        curved.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (k, what) in curved.iter().take(6) {
            eprintln!("  curvature {:.3e} ({:.3e} of g): {what}", k, k / at.value);
        }
        let deeper = deeper_copies(&graph);
        let flows = Corners::at(&graph, prices, &at);
        for c in &flows.corners {
            eprintln!(
                "  corner {} → {} in {:.4e} out {:.4e} linear {} tie {}",
                label(c.tender),
                head(c.receive),
                c.input,
                c.output,
                c.linear,
                c.tie
            );
        }
        let locked = locked_links(&graph, &deeper);
        let ties = tie_groups(&deeper, &locked, prices, flows.gradient(&at));
        eprintln!("  ties {ties:?}");
        let Joined { groups, gradient, .. } = flows.join(&at, prices, ties, &locked);
        let gradient = gradient.unwrap_or(at.gradient.clone());
        let ceiling = sold_at(&graph, prices, &at);
        for (g, pinned) in &groups {
            let worth: f64 = g.iter().map(|&c| prices[c] * gradient[c]).sum();
            let driven = g.iter().all(|&c| prices[c] < DRIVEN * ceiling[c]);
            let overdrawn = -g.iter().map(|&c| ceiling[c] * gradient[c]).sum::<f64>();
            eprintln!(
                "  group {:?} pinned {pinned} worth {:.4e} ({:.3e} of g) driven {driven} overdrawn at its sale price {:.3e} of g; ceilings {:?}",
                g.iter().map(|&c| label(c)).collect::<Vec<_>>(),
                worth,
                worth / at.value, overdrawn / at.value, g.iter().map(|&c| format!("{:.3e}", ceiling[c])).collect::<Vec<_>>()
            );
        }
    }
}

/// The bound's parts on a list of trades over a dumped market (`ROUTE_QUALITY_DUMP`): per trade the
/// plan's out, the joint graph's certificate at the prices its solve ends, the per-side graph's at
/// the prices its first phase reached, which of the two is the less, whether the solve converged,
/// and the per-hop graph's (`pooled_vault_layers.rs`, what a quote starts from where the vault has a
/// per-hop term) certificate at its own solve's end, and the joint graph's there. `FIXTURE=<dump.json> TRADES=<file> cargo test --release -p solver-rs --features
/// reference --lib -- --ignored --nocapture the_bounds_parts_on_listed_trades`, a trade a line:
/// `<tokenIn symbol> <tokenOut symbol> <raw amountIn> <maxHops>`.
#[test]
#[ignore = "a trace"]
fn the_bounds_parts_on_listed_trades() {
    use crate::route::convex::certificate::certified_bound;
    use crate::route::test_market::bounded_quote_of;
    if std::env::var("TRADES").is_err() {
        return;
    }
    let market = fixture_market();
    let weth = Address::parse(WETH).unwrap();
    for (trade, raw, hops) in listed_cases() {
        let amount = raw as f64;
        let scope = any_scope(&market, trade[0], trade[1], hops);
        let graph = Graph::build(&market, &scope).unwrap();
        let sides =
            super::super::graph_sides::per_side(&market, &scope, &graph, &Deadline::never());
        let (dual, apart) =
            super::minimise_two_phase(&graph, sides.as_ref(), amount, &Deadline::never());
        let joint = certified_bound(&graph, &dual.prices, amount).map(f64::from);
        let per_side = sides
            .as_ref()
            .zip(apart.as_deref())
            .and_then(|(s, at)| certified_bound(s, at, amount).map(f64::from));
        let ours = bounded_quote_of(&market, trade, raw, hops, weth, None).ours;
        // The per-hop graph (`pooled_vault_layers.rs`) solved on its own: its certificate, and the
        // joint graph's from its prices.
        let layered = super::super::pooled_vault_layers::per_hop(
            &market,
            &scope,
            &graph,
            amount,
            &Deadline::never(),
        )
        .map(|split| {
            let at = minimise(&split, amount, &Deadline::never());
            let own = certified_bound(&split, &at.prices, amount).map(f64::from);
            let joint_there = certified_bound(&graph, &at.prices, amount).map(f64::from);
            (own, joint_there, at.converged)
        });
        let notional = super::super::pooled_vault_notional::notional_bound(&graph, amount);
        let bps = |b: Option<f64>| b.map_or(f64::NAN, |b| (b - ours) / b * 1e4);
        let kept = match (joint, per_side) {
            (Some(j), Some(s)) if s < j => "per-side",
            (_, Some(_)) => "joint",
            _ => "joint (no per-side graph)",
        };
        eprintln!(
            "{}→{} {hops}-hop {raw}: ours {ours:.6e} joint {:.3} bps per-side {:.3} bps kept {kept} converged {}; per-hop graph {:.3} bps (converged {:?}, notional {notional:.3e}), the joint graph at its prices {:.3} bps",
            name(trade[0]),
            name(trade[1]),
            bps(joint),
            bps(per_side),
            dual.converged,
            bps(layered.and_then(|l| l.0)),
            layered.map(|l| l.2),
            bps(layered.and_then(|l| l.1)),
        );
    }
}
