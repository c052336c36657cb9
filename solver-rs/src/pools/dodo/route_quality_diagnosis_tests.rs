//! A diagnosis of one route-quality trade on a dumped market (`ROUTE_QUALITY_DUMP` of
//! `test/routeQualityEmbedded.test.ts`): the plan, the bound, the dual's convergence, and per
//! venue the dual trades at its optimum, its curve there against one exact swap of that input.
//!
//!   RQ_POOLS=<dump.json> RQ_TRADES='<in> <out> <raw amount> <hops>[;…]' RQ_EXCLUDE=<dexes left out, comma> \
//!   cargo test --release -p solver-rs --features reference diagnose -- --ignored --nocapture
//!
//! `RQ_SWEEP='<in> <out> <raw amount>…'` prints, for every pool of that pair, its curve against one
//! exact swap at each amount (RQ_POOLS must be an absolute path: the test runs in `solver-rs/`).

use crate::address::Address;
use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::pools::PoolModel;
use crate::route::clock::Deadline;
use crate::route::convex::graph::{Graph, Head, Intermediates, Scope};
use crate::route::convex::solve::minimise;
use crate::route::gas::GasPricers;
use crate::route::quote::quote;
use crate::route::quote::RouteSettings;
use crate::route::request::QuoteRequest;
use crate::route::search::DexMask;
use crate::route::test_market::{market_of, settings};
use serde_json::json;

const TOKENS: [(&str, &str); 10] = [
    ("WETH", "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
    ("USDC", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"),
    ("USDbC", "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"),
    ("DAI", "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"),
    ("cbBTC", "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9"),
    ("cbETH", "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707"),
    ("wstETH", "0x0165878A594ca255338adfa4d48449f69242Eb8F"),
    ("AERO", "0xa513E6E4b8f2a923D98304ec87F64353C4D5C853"),
    ("DEGEN", "0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6"),
    ("BRETT", "0x8A791620dd6260079BF849Dc5567aDC3F2FdC318"),
];

fn address(symbol: &str) -> Address {
    let a = TOKENS.iter().find(|t| t.0 == symbol).expect("a devnet symbol").1;
    Address::parse(a).expect("an address")
}

fn symbol(a: Address) -> &'static str {
    TOKENS.iter().find(|t| Address::parse(t.1).unwrap() == a).map_or("?", |t| t.0)
}

#[test]
#[ignore = "a diagnosis, run by hand on a dump (module docs)"]
fn diagnose() {
    let pools: Vec<PoolInput> =
        serde_json::from_str(&std::fs::read_to_string(std::env::var("RQ_POOLS").unwrap()).unwrap())
            .unwrap();
    let all: Vec<DexId> = pools.iter().map(|p| p.dex).collect();
    let market = market_of(pools);
    let excluded: Vec<String> = std::env::var("RQ_EXCLUDE")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let mut dexes: Vec<DexId> = all
        .into_iter()
        .filter(|d| {
            !excluded.contains(&serde_json::to_value(d).unwrap().as_str().unwrap().to_string())
        })
        .collect();
    dexes.sort_by_key(|d| *d as u32);
    dexes.dedup();
    // RQ_SWEEP='<in> <out> <raw amount>[ <raw amount>…]': every pool of that pair, its curve
    // against one exact swap at each amount.
    if let Ok(sweep) = std::env::var("RQ_SWEEP") {
        let f: Vec<&str> = sweep.split_whitespace().collect();
        let (tin, tout) =
            (market.token(&address(f[0])).unwrap(), market.token(&address(f[1])).unwrap());
        for hop in market.edge(tin, tout) {
            let entry = market.pool(hop.pool);
            let (i, o) = (usize::from(hop.token_in), usize::from(hop.token_out));
            let Some(curve) = crate::route::convex::curve::Curve::of(&entry.state, i, o) else {
                continue;
            };
            for amount in &f[2..] {
                let input: f64 = amount.parse().unwrap();
                let exact = U256::from_str_radix(amount, 10)
                    .ok()
                    .and_then(|a| entry.state.amount_out(i, o, a).ok())
                    .map_or(f64::NAN, |s| f64::from(s.amount_out));
                let bound = curve.value(input);
                eprintln!(
                    "  sweep {:?} {} {}→{} in {input:e}: exact {exact:e} ({:e}/unit), curve {bound:e} ({:+.2} bps)",
                    entry.dex,
                    &entry.id[..10],
                    f[0],
                    f[1],
                    exact / input,
                    (bound - exact) / bound * 1e4
                );
            }
        }
    }
    for trade in std::env::var("RQ_TRADES").unwrap_or_default().split(';').filter(|t| !t.is_empty())
    {
        let f: Vec<&str> = trade.split_whitespace().collect();
        let (tin, tout, amount, hops) =
            (address(f[0]), address(f[1]), f[2], f[3].parse::<usize>().unwrap());
        let s = RouteSettings { default_connector_count: 8, beam: 3, ..settings(address("WETH")) };
        let request: QuoteRequest = serde_json::from_value(json!({
            "tokenIn": tin.to_string(), "tokenOut": tout.to_string(), "amountIn": amount,
            "slippageBps": 50, "maxHops": hops, "timeBudgetMs": 10_000,
            "allowedDexes": dexes,
        }))
        .unwrap();
        let plan = quote(&market, &s, &request, &GasPricers::default()).expect("a plan");
        let ours = f64::from(plan.expected_amount_out);
        let bound = f64::from(plan.metadata.upper_bound.unwrap());
        eprintln!(
            "\n== {} → {} {} hops {}: ours {ours:e}, bound {bound:e}, gap {:.2} bps",
            f[0],
            f[1],
            amount,
            hops,
            (bound - ours) / bound * 1e4
        );
        for r in &plan.routes {
            let legs: Vec<String> = r
                .legs
                .iter()
                .map(|l| {
                    format!(
                        "{:?}:{}→{} {}",
                        l.dex,
                        symbol(l.token_in),
                        symbol(l.token_out),
                        &l.pool_id[..10]
                    )
                })
                .collect();
            eprintln!("  route in {} out {}: {}", r.amount_in, r.amount_out, legs.join(" | "));
        }
        let token = |a: &Address| market.token(a).unwrap();
        let scope = Scope {
            token_in: token(&tin),
            token_out: token(&tout),
            max_hops: hops,
            intermediates: Intermediates::Any,
            dexes: DexMask::of(&dexes),
        };
        let graph = Graph::build(&market, &scope).unwrap();
        let amount_in: f64 = amount.parse().unwrap();
        let dual = minimise(&graph, amount_in, &Deadline::never());
        eprintln!(
            "  dual: g {:e} ({:+.2} bps of ours), converged {}, copies {}",
            dual.evaluation.value,
            (dual.evaluation.value - ours) / ours * 1e4,
            dual.converged,
            graph.copies.len()
        );
        for (c, copy) in graph.copies.iter().enumerate() {
            eprintln!(
                "   copy {c} {}@{}: price {:e}, excess {:e}",
                symbol(market.token_address(copy.token)),
                copy.layer,
                dual.prices[c],
                dual.evaluation.gradient[c]
            );
        }
        if let Ok(group) = std::env::var("RQ_PROBE") {
            let group: Vec<usize> = group.split(',').map(|c| c.parse().unwrap()).collect();
            let terms = |prices: &[f64]| -> Vec<f64> {
                (0..graph.venues.len())
                    .map(|v| match &graph.venues[v].pooled {
                        Some(p) => crate::route::convex::dual::pooled_term(p, prices).joint.value,
                        None => crate::route::convex::dual::venue_term(&graph, v, prices)
                            .map_or(0.0, |t| t.value),
                    })
                    .collect()
            };
            let base = terms(&dual.prices);
            for step in [-1e-2, -1e-3, -1e-4, -1e-5, -1e-6, 1e-6] {
                let mut p = dual.prices.clone();
                group.iter().for_each(|&c| p[c] *= 1.0 + step);
                let at = crate::route::convex::dual::evaluate(&graph, &p, amount_in, false);
                let t = terms(&p);
                let mut moved: Vec<(usize, f64)> =
                    t.iter().zip(&base).map(|(a, b)| a - b).enumerate().collect();
                moved.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
                let names: Vec<String> = moved[..4]
                    .iter()
                    .map(|&(v, d)| {
                        let e = market.pool(graph.arcs[graph.venues[v].arcs[0]].hop.pool);
                        format!("{:?} {} {d:e}", e.dex, &e.id[..10])
                    })
                    .collect();
                eprintln!(
                    "   probe {step:e}: g {:e} (Δ {:e}, in {:e}), venues {}",
                    at.value,
                    at.value - dual.evaluation.value,
                    (p[0] - dual.prices[0]) * amount_in,
                    names.join("; ")
                );
            }
        }
        for t in dual.evaluation.trades.iter().flatten() {
            if t.response.input <= 0.0 && t.response.output <= 0.0 {
                continue;
            }
            let arc = graph.arcs[t.arc];
            let entry = market.pool(arc.hop.pool);
            let (i, o) = (usize::from(arc.hop.token_in), usize::from(arc.hop.token_out));
            let curve = &graph.sides[arc.side].curve;
            let input = t.response.input;
            let exact = U256::try_from(input.floor().max(1.0))
                .ok()
                .and_then(|a| entry.state.amount_out(i, o, a).ok())
                .map_or(f64::NAN, |s| f64::from(s.amount_out));
            let tender = dual.prices[arc.from];
            let recv = match arc.to {
                Head::Copy(c) => dual.prices[c],
                Head::Out => 1.0,
            };
            let h = (input * 1e-6).max(1.0);
            let marginal = (curve.value(input + h) - curve.value(input)) / h;
            let marginal_before = (curve.value(input) - curve.value((input - h).max(0.0))) / h;
            eprintln!(
                "   {:?} {} {}→{}: in {input:e} out {:e} exact {exact:e} (curve {:+.2} bps), \
                 first rate {:e}, price ratio {:e}, curve slope before/after {:e}/{:e}, value at price {:e}",
                entry.dex,
                &entry.id[..10],
                symbol(market.token_address(entry.tokens[i])),
                symbol(market.token_address(entry.tokens[o])),
                t.response.output,
                (t.response.output - exact) / exact * 1e4,
                curve.first_rate(),
                tender / recv,
                marginal_before,
                marginal,
                t.response.output * recv - input * tender,
            );
        }
    }
}
