//! A trace of the dual's solve on the embedded market with its Curve meta pool on
//! (`fixtures/devnet_meta_pools.json`, `ROUTE_QUALITY_META=1 ROUTE_QUALITY_DUMP=…`,
//! `test/routeQualityEmbedded.test.ts`, 2026-11-29: 158 pools, the saved chain's): per case, g
//! where the solve ends against the plan's out, whether it converged, and the meta venue's term
//! there (each coin's trade, the first budget's own value against the two budgets' pairs at the
//! multipliers their search reaches). `CASE=<index> cargo test --release -p solver-rs --features
//! reference --lib -- --ignored --nocapture diagnose_meta`; with `QUOTES_ONLY=1` only the quotes,
//! the bound's solve and the first line per case (to time them: the process's user time).

use crate::address::Address;
use crate::market::Market;
use crate::pools::input::PoolInput;
use crate::route::clock::Deadline;
use crate::route::convex::dual::{evaluate, pooled_term};
use crate::route::convex::graph::Graph;
use crate::route::convex::solve::minimise;
use crate::route::test_market::devnet_tokens::*;
use crate::route::test_market::{any_scope, bounded_quote, market_of};

/// The embedded market with its meta pool on (module docs).
pub(crate) fn devnet_meta() -> Market {
    let pools: Vec<PoolInput> =
        serde_json::from_str(include_str!("fixtures/devnet_meta_pools.json")).unwrap();
    market_of(pools)
}

/// The worst trades of the route-quality run with the meta pool on (docs/solver-optimizer.md,
/// *Not yet on the default market*): token in, token out, raw amount, hops.
pub(crate) const CASES: [(&str, &str, u128, usize); 9] = [
    (USDBC, DEGEN, 1_000_000_000, 3),
    (DEGEN, DAI, 100_000_000_000_000_000_000_000_000, 3),
    (USDBC, WSTETH, 100_000_000, 3),
    (DEGEN, DAI, 100_000_000_000_000_000_000_000, 3),
    (DEGEN, DAI, 1_000_000_000_000_000_000_000_000, 3),
    (BRETT, DAI, 8_333_333_333_333_000_000_000_000, 3),
    (CBETH, DAI, 30_303_000_000_000_000, 3),
    (DAI, DEGEN, 1_000_000_000_000_000_000_000, 3),
    (DEGEN, USDBC, 100_000_000_000_000_000_000_000_000, 3),
];

#[test]
#[ignore = "a trace"]
fn diagnose_meta() {
    let market = devnet_meta();
    let only: Option<usize> = std::env::var("CASE").ok().and_then(|s| s.parse().ok());
    for (i, (tin, tout, raw, hops)) in CASES.into_iter().enumerate() {
        if only.is_some_and(|o| o != i) {
            continue;
        }
        let trade = [Address::parse(tin).unwrap(), Address::parse(tout).unwrap()];
        let scope = any_scope(&market, trade[0], trade[1], hops);
        let graph = Graph::build(&market, &scope).unwrap();
        let amount = raw as f64;
        let dual = minimise(&graph, amount, &Deadline::never());
        let prices = &dual.prices;
        let at = evaluate(&graph, prices, amount, false);
        let weth = Address::parse(WETH).unwrap();
        let ours = bounded_quote(&market, trade, raw, hops, weth);
        eprintln!(
            "== case {i}: {}→{} {hops}-hop {amount:e}: g {:.6e}, plan {:.6e} ({:.1} bps), service bound {:.6e} converged {} (ours {})",
            symbol(trade[0]),
            symbol(trade[1]),
            at.value,
            ours.ours,
            1e4 * (at.value - ours.ours) / at.value,
            ours.bound,
            dual.converged,
            ours.converged
        );
        if std::env::var_os("QUOTES_ONLY").is_some() {
            continue;
        }
        let label = |c: usize| {
            format!(
                "{}#{}@L{}",
                symbol(market.token_address(graph.copies[c].token)),
                c,
                graph.copies[c].layer
            )
        };
        for (c, (price, excess)) in prices.iter().zip(&at.gradient).enumerate() {
            eprintln!("  {:<16} price {price:.9e} excess {excess:.6e}", label(c));
        }
        for venue in &graph.venues {
            let Some(pooled) = &venue.pooled else { continue };
            if pooled.budget.second.is_none() {
                continue;
            }
            let term = pooled_term(pooled, prices);
            eprintln!("  meta venue: term {:.6e}", term.joint.value);
            fd_check(&pooled.budget, &term, prices);
            for (t, c) in pooled.budget.coins.iter().enumerate() {
                eprintln!(
                    "    coin {t}: x {:.4e} linear {} tender {:?} receive {:?} in {:.4e} out {:.4e}",
                    c.x,
                    c.linear,
                    term.tender[t].map(label),
                    term.receive[t],
                    term.joint.inputs[t],
                    term.joint.outputs[t],
                );
            }
        }
    }
}

/// The term's flows and Hessian against finite differences of its value and flows, per price
/// variable (2t tender, 2t + 1 receive) the venue prices.
fn fd_check(
    budget: &crate::route::convex::pooled::Budget,
    term: &crate::route::convex::dual::PooledTerm,
    prices: &[f64],
) {
    use crate::route::convex::dual::head_price;
    use crate::route::convex::pooled::CoinPrices;
    let n = budget.coins.len();
    let base: Vec<CoinPrices> = (0..n)
        .map(|t| CoinPrices {
            tender: term.tender[t].map(|c| prices[c]),
            receive: term.receive[t].map(|h| head_price(prices, h)),
        })
        .collect();
    let at = budget.joint(&base);
    let rs = budget.responses(&base);
    let mut system = budget.second.as_ref();
    while let Some(two) = system {
        let l = budget.multipliers(two, &rs);
        let v = l.and_then(|l| budget.joint_at_two(two, &base, &rs, l)).map(|j| j.value);
        eprintln!("    pair level {} multipliers {l:?} value {v:?}", two.level.is_some());
        if let Some(or) = &two.or {
            let l = budget.multipliers(or, &rs);
            let v = l.and_then(|l| budget.joint_at_two(or, &base, &rs, l)).map(|j| j.value);
            eprintln!("      or the chord's piece below D₁: multipliers {l:?} value {v:?}");
            if let Some(l) = l {
                let (least, at) = grid_least(|ll| budget.joint_at_two(or, &base, &rs, ll), l);
                eprintln!("      its grid's least {least:.6e} at {at:?}");
            }
        }
        if let (Some(l), Some(level)) = (l, &two.level) {
            let j = budget.joint_at_two(two, &base, &rs, l).unwrap();
            let at = level.respond(l).unwrap();
            eprintln!(
                "      slack {:?} D {:.6e} (floor {:.6e}, d1 {:.6e}) terms {:?} G {:.6e} in {:?} out {:?} budget {:?}",
                two.slack, at.d, level.floor, level.d1, at.terms, level.value(&at, l), j.inputs, j.outputs, j.budget
            );
            for (t, c) in budget.coins.iter().enumerate() {
                eprintln!(
                    "      coin {t} x {:.6e} prices {:?} coefficients {:?}",
                    c.x, base[t], two.coefficients[t]
                );
            }
        }
        if let Some(l) = l {
            let (least, at) = grid_least(|ll| budget.joint_at_two(two, &base, &rs, ll), l);
            eprintln!("      grid's least {least:.6e} at {at:?}");
        }
        system = two.also.as_deref();
    }
    let flow = |j: &crate::route::convex::pooled::Joint, v: usize| {
        if v.is_multiple_of(2) {
            -j.inputs[v / 2]
        } else {
            j.outputs[v / 2]
        }
    };
    for v in 0..2 * n {
        let p = if v.is_multiple_of(2) { base[v / 2].tender } else { base[v / 2].receive };
        let Some(p) = p else { continue };
        for rel in [1e-4, 1e-6, 1e-8] {
            let h = p * rel;
            let shifted = |d: f64| {
                let mut q = base.clone();
                if v.is_multiple_of(2) {
                    q[v / 2].tender = Some(p + d)
                } else {
                    q[v / 2].receive = Some(p + d)
                }
                budget.joint(&q)
            };
            let (up, down) = (shifted(h), shifted(-h));
            let slope = (up.value - down.value) / (2.0 * h);
            let row: Vec<String> = (0..2 * n)
                .map(|w| {
                    let fd = (flow(&up, w) - flow(&down, w)) / (2.0 * h);
                    format!("{:.3e}/{:.3e}", at.hessian[v * 2 * n + w], fd)
                })
                .collect();
            eprintln!(
                "    var {v} rel {rel:e}: value slope {slope:.4e} flow {:.4e}; hessian/fd {}",
                flow(&at, v),
                row.join(" ")
            );
        }
    }
}

/// The least of `value` over a grid of multipliers around `l` (each ×1.1ⁱ, or from 10⁻³·λ₁ where
/// λ₀ is 0, and λ₁ ×1.05ʲ, from 10⁻⁶·λ₀ where it is below that; and each at 0), and where it is.
fn grid_least(
    value: impl Fn([f64; 2]) -> Option<crate::route::convex::pooled::Joint>,
    l: [f64; 2],
) -> (f64, [f64; 2]) {
    let mut best = (f64::INFINITY, [0.0, 0.0]);
    let l1 = if l[1] > 1e-6 * l[0] { l[1] } else { 1e-6 * l[0] };
    for i in -60..=60 {
        for j in -300..=60 {
            let ll = [
                if l[0] > 0.0 { l[0] * 1.1f64.powi(i) } else { 1e-3 * l1 * 1.2f64.powi(i) },
                l1 * 1.05f64.powi(j),
            ];
            if let Some(jj) = value(ll) {
                if jj.value < best.0 {
                    best = (jj.value, ll);
                }
            }
        }
        // Each multiplier at 0.
        for ll in [[0.0, l1 * 1.05f64.powi(i)], [l[0] * 1.1f64.powi(i), 0.0]] {
            if let Some(jj) = value(ll) {
                if jj.value < best.0 {
                    best = (jj.value, ll);
                }
            }
        }
    }
    best
}
