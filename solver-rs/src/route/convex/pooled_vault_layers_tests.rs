//! The vault priced hop by hop on the devnet's market one prop AMM keeper tick after the saved
//! state (`devnet_sampled_fresh_pools.json`: the vault's oracle fresh, the prop AMMs re-priced).

use super::super::graph::{Graph, Head};
use crate::address::Address;
use crate::market::{Hop, Market, PoolIdx};
use crate::math::U256;
use crate::pools::{PoolModel, PoolState};
use crate::route::clock::Deadline;
use crate::route::test_market::devnet_tokens::*;
use crate::route::test_market::{any_scope, bounded_quote, devnet_sampled_fresh, Rng};
use std::collections::HashMap;

/// cbBTC → USDC 3-hop 0.1 cbBTC, the service's 1-route plan through QUICKSWAP_V4 and two UNIV3
/// pools: the joint graph's solve converged 2,667 bps above it, the vault lending WETH and cbETH
/// at the first layer what the second repays while two UNIV3 pools trade WETH ↔ cbETH apart from
/// the oracle (`solve_vault_diagnosis.rs`'s trace). The per-hop graph's certificate is kept.
#[test]
fn the_vault_lends_no_hop_what_a_later_hop_repays() {
    let _joint = crate::pools::woofi::joint_bound_in_tests(true);
    let market = devnet_sampled_fresh(&[]);
    let trade = [Address::parse(CBBTC).unwrap(), Address::parse(USDC).unwrap()];
    let q = bounded_quote(&market, trade, 10_000_000, 3, Address::parse(WETH).unwrap());
    let gap = (q.bound - q.ours) / q.bound * 1e4;
    assert!(q.ours <= q.bound, "the plan {} above the bound {}", q.ours, q.bound);
    assert!(gap < 100.0, "gap {gap:.1} bps: plan {} bound {}", q.ours, q.bound);
}

/// Every path of the trade's graph through the vault, alone and in random pairs (the first route
/// then the second, each on the pools the first left, as the router runs them), executed with the
/// exact models at random amounts: none pays more than the bound at its amount.
#[test]
fn no_plan_through_the_vault_beats_the_bound() {
    let _joint = crate::pools::woofi::joint_bound_in_tests(true);
    let market = devnet_sampled_fresh(&[]);
    let mut rng = Rng(0x0021_1a7e);
    let (mut plans, mut closest) = (0, f64::INFINITY);
    for (from, to) in [(CBBTC, USDC), (WETH, CBBTC), (CBETH, USDC), (CBETH, CBBTC)] {
        let trade = [Address::parse(from).unwrap(), Address::parse(to).unwrap()];
        let scope = any_scope(&market, trade[0], trade[1], 3);
        let graph = Graph::build(&market, &scope).unwrap();
        let vault = |hop: &Hop| market.pool(hop.pool).dex == crate::dex::DexId::Woofi;
        let paths: Vec<Vec<Hop>> =
            paths(&graph).into_iter().filter(|p| p.iter().any(vault)).collect();
        assert!(!paths.is_empty(), "no path through the vault");
        for _ in 0..6 {
            let amount = rng.log_amount(4, 9) * 10u128.pow(if from == CBBTC { 0 } else { 10 });
            let bound =
                super::super::bound(&market, &scope, U256::from(amount), &Deadline::never())
                    .map(f64::from)
                    .unwrap();
            for _ in 0..8 {
                let (a, b) = (rng.range(0, paths.len() as u64), rng.range(0, paths.len() as u64));
                let share = rng.range(0, 101) as u128;
                let first = amount * share / 100;
                let plan = [(&paths[a as usize], first), (&paths[b as usize], amount - first)];
                let Some(out) = execute(&market, &plan) else { continue };
                plans += 1;
                closest = closest.min((bound - out) / bound * 1e4);
                assert!(out <= bound, "{from}→{to} {amount}: {plan:?} pays {out} above {bound}");
            }
        }
    }
    eprintln!("{plans} plans, the closest {closest:.2} bps below its bound");
    assert!(plans > 60, "{plans} plans executed");
}

/// Every path from tokenIn to tokenOut along the graph's arcs, as its hops.
fn paths(graph: &Graph) -> Vec<Vec<Hop>> {
    let mut done = Vec::new();
    let mut open: Vec<(usize, Vec<Hop>)> = vec![(0, Vec::new())];
    while let Some((copy, path)) = open.pop() {
        for arc in graph.arcs.iter().filter(|a| a.from == copy) {
            let mut next = path.clone();
            next.push(arc.hop);
            match arc.to {
                Head::Out => done.push(next),
                Head::Copy(c) => open.push((c, next)),
            }
        }
    }
    done
}

/// The routes run in order with the exact models, each leg on the state the previous legs left;
/// None where a leg refuses.
fn execute(market: &Market, plan: &[(&Vec<Hop>, u128)]) -> Option<f64> {
    let mut states: HashMap<PoolIdx, PoolState> = HashMap::new();
    let mut total = 0.0;
    for (path, amount) in plan {
        let mut carried = U256::from(*amount);
        for hop in path.iter() {
            let state = states
                .get(&hop.pool)
                .cloned()
                .unwrap_or_else(|| market.pool(hop.pool).state.clone());
            let (outcome, next) =
                state.apply(usize::from(hop.token_in), usize::from(hop.token_out), carried).ok()?;
            states.insert(hop.pool, next);
            carried = outcome.amount_out;
        }
        total += f64::from(carried);
    }
    Some(total)
}
