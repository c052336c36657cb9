//! The notional bound on the devnet's market one prop AMM keeper tick after the saved state
//! (`devnet_sampled_fresh_pools.json`: the vault's oracle fresh, the prop AMMs re-priced).

use super::super::graph::Graph;
use crate::address::Address;
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::test_market::devnet_tokens::*;
use crate::route::test_market::{any_scope, bounded_quote, devnet_sampled_fresh, Rng};

/// The goal's worst gap (bps): the per-hop graph leaves cbETH → USDC 3-hop $100 4.36 bps.
const GAP_BPS: f64 = 5.0;

/// cbETH → USDC 3-hop 0.0303 cbETH ($100): the scope's Curve pool cbETH/wstETH feeds copies the
/// vault can be sold at a later hop. Before `most_paid` the notional bound left a pooled venue's
/// outputs unbounded, so the plan's notional through the vault was infinite and the per-hop graph
/// gave every hop the oracle's whole interval (337 bps above the plan on the route-quality run).
#[test]
fn a_curve_pool_ahead_of_the_vault_leaves_the_notional_bounded() {
    let _joint = crate::pools::woofi::joint_bound_in_tests(true);
    let market = devnet_sampled_fresh(&[]);
    let trade = [Address::parse(CBETH).unwrap(), Address::parse(USDC).unwrap()];
    let scope = any_scope(&market, trade[0], trade[1], 3);
    let graph = Graph::build(&market, &scope).unwrap();
    let amount = 30_303_000_000_000_000u128;
    let notional = super::notional_bound(&graph, amount as f64);
    // $100 through up to three hops of the vault, parallel pools each counted whole: $1,441.
    assert!(notional < 1e10, "notional bound {notional:e} raw USDC");
    let q = bounded_quote(&market, trade, amount, 3, Address::parse(WETH).unwrap());
    let gap = (q.bound - q.ours) / q.bound * 1e4;
    assert!(q.ours <= q.bound, "the plan {} above the bound {}", q.ours, q.bound);
    assert!(gap < GAP_BPS, "gap {gap:.1} bps: plan {} bound {}", q.ours, q.bound);
}

/// Random runs of up to 8 swaps in random pairs through each of the scope's StableSwap pools (four:
/// 2 to 4 coins, cbETH/wstETH's rate providers), each on the state the last left, with the exact
/// model: after every swap, what the run has been paid of each coin is never above `most_paid` at
/// what it has deposited.
#[test]
fn no_run_through_a_pooled_venue_is_paid_more_than_its_deposits_fund() {
    let market = devnet_sampled_fresh(&[]);
    let trade = [Address::parse(USDC).unwrap(), Address::parse(CBETH).unwrap()];
    let graph = Graph::build(&market, &any_scope(&market, trade[0], trade[1], 3)).unwrap();
    let mut rng = Rng(0x0021_c0ba);
    let (mut venues, mut swaps, mut closest) = (0, 0, f64::INFINITY);
    for venue in &graph.venues {
        let Some(pooled) = venue.pooled.as_ref().filter(|p| !p.budget.is_linear()) else {
            continue;
        };
        let budget = &pooled.budget;
        let pool = graph.arcs[venue.arcs[0]].hop.pool;
        let n = budget.coins.len() as u64;
        venues += 1;
        for _ in 0..32 {
            let mut state = market.pool(pool).state.clone();
            let (mut deposited, mut paid) = (vec![0.0; n as usize], vec![0.0; n as usize]);
            for _ in 0..rng.range(1, 9) {
                let t = rng.range(0, n) as usize;
                let u = (t + rng.range(1, n) as usize) % n as usize;
                // Up to a third of the pool's amount of t, log-uniform from 10⁻⁷ of it.
                let held = budget.coins[t].x / budget.coins[t].scale;
                let raw = (held * rng.log_amount(0, 7) as f64 / 3e7) as u128;
                let Ok((outcome, next)) = state.apply(t, u, U256::from(raw.max(1))) else {
                    continue;
                };
                state = next;
                deposited[t] += raw.max(1) as f64;
                paid[u] += f64::from(outcome.amount_out);
                swaps += 1;
                for (c, &got) in paid.iter().enumerate() {
                    let most = super::most_paid(budget, &deposited, c);
                    assert!(got <= most, "pool {pool:?} coin {c}: paid {got} above {most}");
                    if got > 0.0 {
                        closest = closest.min((most - got) / most * 1e4);
                    }
                }
            }
        }
    }
    eprintln!("{venues} pools, {swaps} swaps, the closest {closest:.2} bps below");
    assert!(venues >= 4 && swaps > 400, "{venues} pools, {swaps} swaps");
}
