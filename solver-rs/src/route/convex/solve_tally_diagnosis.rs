//! Where the dual's solve spends its steps on a dumped market (`quote_profile`'s dumps: `config`,
//! `pools`, `requests`): per request, the graph's size, the steps of its solve
//! (`minimise_two_phase_above`, as a quote's bound runs it) counted (`solve_tally.rs`), its ms,
//! and the certified bound. The solve stops where a
//! quote's would (`enough.rs`): at the best single path's gas-free output; `FLOOR=0`: never.
//! `DUMP=/path/market.json [REQUEST=<index>] cargo test --release -p solver-rs --features
//! reference --lib -- --ignored --nocapture diagnose_solve_steps`; without `DUMP`, the fresh
//! fixture's WETH→USDC 3-hop at 1 WETH.

use super::minimise_two_phase_above;
use crate::address::Address;
use crate::market::Market;
use crate::route::clock::Deadline;
use crate::route::convex::certificate::least_certified;
use crate::route::convex::enough::Floor;
use crate::route::convex::graph::{Graph, Head};
use crate::route::convex::graph_sides::per_side;
use crate::route::convex::solve_tally::{take, STEPS};
use crate::route::gas::GasPricers;
use crate::route::quote::quote;
use crate::route::request::QuoteRequest;
use crate::route::test_market::devnet_tokens::{USDC, WETH};
use crate::route::test_market::{any_scope, devnet_sampled_fresh, market_of, settings};
use std::time::Instant;

/// The market and its trades: the dump `DUMP` names, else the fresh fixture's 1 WETH → USDC.
fn dumped() -> (Market, Vec<([Address; 2], f64, usize)>) {
    let Ok(path) = std::env::var("DUMP") else {
        let trade = [Address::parse(WETH).unwrap(), Address::parse(USDC).unwrap()];
        return (devnet_sampled_fresh(&[]), vec![(trade, 1e18, 3)]);
    };
    let dump: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let market = market_of(serde_json::from_value(dump["pools"].clone()).unwrap());
    let request = |r: &serde_json::Value| {
        let address = |k: &str| Address::parse(r[k].as_str().unwrap()).unwrap();
        let amount: f64 = r["amountIn"].as_str().unwrap().parse().unwrap();
        let hops = r["maxHops"].as_u64().map_or(3, |h| h as usize);
        ([address("tokenIn"), address("tokenOut")], amount, hops)
    };
    (market, dump["requests"].as_array().unwrap().iter().map(request).collect())
}

/// What the best single path pays for `trade` gas-free (raw tokenOut), as the quote's floor; none
/// with `FLOOR=0`.
fn single_path_floor(market: &Market, trade: [Address; 2], amount: f64, hops: usize) -> Floor {
    if std::env::var("FLOOR").is_ok_and(|f| f == "0") {
        return Floor::NONE;
    }
    let request = serde_json::json!({
        "tokenIn": trade[0].to_string(), "tokenOut": trade[1].to_string(),
        "amountIn": format!("{amount:.0}"), "slippageBps": 50, "maxHops": hops,
        "splitEnabled": false, "gasPriceWei": "0", "timeBudgetMs": 10_000,
    });
    let request: QuoteRequest = serde_json::from_value(request).unwrap();
    let settings = settings(Address::parse(WETH).unwrap());
    let plan = quote(market, &settings, &request, &GasPricers::default());
    plan.map_or(Floor::NONE, |p| Floor::of(p.expected_amount_out))
}

/// The counts since the last, as `name count` pairs (those not 0).
fn counted() -> String {
    let counts = take();
    let named = STEPS.iter().zip(counts).filter(|(_, n)| *n > 0);
    named.map(|(s, n)| format!("{s:?} {n}")).collect::<Vec<_>>().join(", ")
}

#[test]
#[ignore = "a diagnosis"]
fn diagnose_solve_steps() {
    let (market, requests) = dumped();
    let only: Option<usize> = std::env::var("REQUEST").ok().and_then(|s| s.parse().ok());
    let never = Deadline::never();
    for (i, (trade, amount, hops)) in requests.into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let scope = any_scope(&market, trade[0], trade[1], hops);
        let floor = single_path_floor(&market, trade, amount, hops);
        let Ok(graph) = Graph::build(&market, &scope) else { continue };
        let pooled = graph.venues.iter().filter(|v| v.pooled.is_some()).count();
        let to_out = graph.arcs.iter().filter(|a| a.to == Head::Out).count();
        println!(
            "request {i}: {} copies, {} venues ({pooled} pooled), {} arcs ({to_out} to tokenOut)",
            graph.copies.len(),
            graph.venues.len(),
            graph.arcs.len()
        );
        take();
        let clock = Instant::now();
        let sides = per_side(&market, &scope, &graph, &never);
        let ms = |from: Instant| from.elapsed().as_secs_f64() * 1e3;
        println!("  per-side graph {:.3} ms: {}", ms(clock), sides.is_some());
        let clock = Instant::now();
        let (dual, apart) = minimise_two_phase_above(&graph, sides.as_ref(), amount, floor, &never);
        println!("  solve {:.3} ms: {}", ms(clock), counted());
        let pairs = sides.as_ref().zip(apart.as_deref());
        let bound = least_certified(&graph, pairs, &dual.prices, amount);
        println!(
            "  g {:.6e}, bound {bound:?}, converged {}, {floor:?}",
            dual.evaluation.value, dual.converged
        );
    }
}
