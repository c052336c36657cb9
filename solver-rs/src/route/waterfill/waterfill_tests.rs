//! The water-filling reference end to end: its answer replays exactly, it never pays less than the
//! best single path nor more than the convex bound, it reaches closed-form optima on parallel
//! pools, and its rules (gas, splitting off, deadline, discovery, depth) are Fynd's.

use super::depth::{Depths, DEPTH_SLIPPAGE};
use super::{waterfill, Strategy, WaterfillPlan};
use crate::market::{Hop, Market};
use crate::math::U256;
use crate::pools::{PoolModel, PoolState};
use crate::route::clock::{Deadline, MonotonicClock, SteppingClock};
use crate::route::convex::bound;
use crate::route::convex::graph::{Intermediates, Scope};
use crate::route::gas::GasPricers;
use crate::route::path::quote_path;
use crate::route::request::QuoteRequest;
use crate::route::search::DexMask;
use crate::route::test_market::{addr, cl_pool, cp_pool, market_of, settings, solidly_pool, Rng};
use serde_json::{json, Value};
use std::collections::HashMap;

const E18: u128 = 1_000_000_000_000_000_000;

fn request(amount: u128, hops: u32, extra: Value) -> QuoteRequest {
    let mut r = json!({
        "tokenIn": addr(1).to_string(), "tokenOut": addr(2).to_string(), "amountIn": amount.to_string(),
        "slippageBps": 50, "maxHops": hops,
    });
    r.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    serde_json::from_value(r).unwrap()
}

fn run(market: &Market, request: &QuoteRequest) -> WaterfillPlan {
    waterfill(
        market,
        &settings(addr(9)),
        request,
        &GasPricers::default(),
        &Depths::default(),
        &MonotonicClock,
    )
    .unwrap()
}

/// Replays the answer's swaps in order on a private copy of the pools; checks each against the
/// model, that every token spends exactly what reached it, and returns what reached tokenOut.
fn replay(market: &Market, plan: &WaterfillPlan) -> U256 {
    let mut states: HashMap<String, PoolState> = HashMap::new();
    let mut balance: HashMap<crate::address::Address, U256> =
        HashMap::from([(addr(1), plan.amount_in)]);
    for swap in &plan.swaps {
        let slot = market.pool_by_id(&swap.pool_id).unwrap();
        let entry = market.pool(slot);
        let i =
            entry.tokens.iter().position(|t| market.token_address(*t) == swap.token_in).unwrap();
        let state = states.get(&swap.pool_id).cloned().unwrap_or_else(|| entry.state.clone());
        let (outcome, next) = state.apply(i, 1 - i, swap.amount_in).unwrap();
        assert_eq!(
            outcome.amount_out, swap.amount_out,
            "swap on {} is not what the model pays",
            swap.pool_id
        );
        assert_eq!(
            swap.min_out,
            swap.amount_out * U256::from(9_950) / U256::from(10_000),
            "minOut at 50 bps"
        );
        states.insert(swap.pool_id.clone(), next);
        let held = balance.get_mut(&swap.token_in).expect("a swap spends a token that has arrived");
        *held = held.checked_sub(swap.amount_in).expect("never more than arrived");
        *balance.entry(swap.token_out).or_insert(U256::ZERO) += swap.amount_out;
    }
    let out = balance.remove(&addr(2)).unwrap_or(U256::ZERO);
    assert!(
        balance.values().all(|b| b.is_zero()),
        "every middle token is spent to the last unit: {balance:?}"
    );
    out
}

/// The best single path's output, by brute force over every path of at most `hops` hops.
fn best_single(market: &Market, hops: usize, amount: U256) -> U256 {
    let (a, b) = (market.token(&addr(1)).unwrap(), market.token(&addr(2)).unwrap());
    let mut best = U256::ZERO;
    let mut stack = vec![crate::route::path::Path { tokens: vec![a], hops: vec![] }];
    while let Some(p) = stack.pop() {
        let at = *p.tokens.last().unwrap();
        if at == b {
            best = best.max(quote_path(market, &p, amount).map_or(U256::ZERO, |(o, _)| o));
            continue;
        }
        if p.hops.len() == hops {
            continue;
        }
        for &next in market.neighbours(at) {
            if p.tokens.contains(&next) {
                continue;
            }
            for hop in market.edge(at, next) {
                let mut q = p.clone();
                q.tokens.push(next);
                q.hops.push(*hop);
                stack.push(q);
            }
        }
    }
    best
}

/// A random market of every family between A=1, B=2 and middle tokens 3..6.
fn random_market(rng: &mut Rng) -> Market {
    let tokens: Vec<_> = (1..=6).map(addr).collect();
    let mut pools = Vec::new();
    for id in 1..=24u8 {
        let (i, j) = loop {
            let (i, j) = (rng.range(0, 6) as usize, rng.range(0, 6) as usize);
            if i != j {
                break (i, j);
            }
        };
        let (r0, r1) = (rng.log_amount(20, 24), rng.log_amount(20, 24));
        pools.push(match id % 3 {
            0 => cp_pool(
                id,
                if id % 2 == 0 { "UNIV2" } else { "PANCAKE_V2" },
                tokens[i],
                tokens[j],
                r0,
                r1,
            ),
            1 => solidly_pool(id, [tokens[i], tokens[j]], [r0, r1], false, [18, 18], 30),
            _ => {
                let tick = (rng.range(0, 200) as i32 - 100) * 60;
                let liquidity = rng.log_amount(19, 22);
                cl_pool(
                    id,
                    "UNIV3",
                    [tokens[i], tokens[j]],
                    tick + 30,
                    3000,
                    None,
                    &[
                        (tick - 600, tick + 600, liquidity),
                        (tick - 6000, tick + 6000, liquidity / 4),
                    ],
                )
            }
        });
    }
    market_of(pools)
}

#[test]
fn on_random_markets_it_replays_exactly_and_lies_between_the_best_single_path_and_the_bound() {
    let mut rng = Rng(0x5eed_4a7e);
    let mut checked = 0;
    for _ in 0..12 {
        let market = random_market(&mut rng);
        let (Some(a), Some(b)) = (market.token(&addr(1)), market.token(&addr(2))) else { continue };
        for hops in 1..=3u32 {
            for amount in [E18 / 100, 10 * E18, 1_000 * E18] {
                let Ok(plan) = waterfill(
                    &market,
                    &settings(addr(9)),
                    &request(amount, hops, json!({})),
                    &GasPricers::default(),
                    &Depths::default(),
                    &MonotonicClock,
                ) else {
                    assert!(
                        best_single(&market, hops as usize, U256::from(amount)).is_zero(),
                        "no answer although a path pays"
                    );
                    continue;
                };
                assert_eq!(replay(&market, &plan), plan.expected_amount_out);
                assert!(
                    plan.expected_amount_out
                        >= best_single(&market, hops as usize, U256::from(amount)),
                    "below the best single path"
                );
                // A tree may carry units further than maxHops (merging at a token reached after
                // different numbers of hops): the bound over walks of that length holds.
                assert!(
                    plan.longest_walk <= (2 * hops as usize).saturating_sub(2).max(1),
                    "walk {} for {hops} hops",
                    plan.longest_walk
                );
                let walks = plan.longest_walk.max(hops as usize);
                let scope = Scope {
                    token_in: a,
                    token_out: b,
                    max_hops: walks,
                    intermediates: Intermediates::Any,
                    dexes: DexMask::ALL,
                };
                let bound = bound(&market, &scope, U256::from(amount), &Deadline::never()).unwrap();
                assert!(
                    plan.expected_amount_out <= bound,
                    "above the bound: {} > {bound}",
                    plan.expected_amount_out
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "only {checked} trades routed");
}

/// Two or three constant-product pools A → B: the best split equalises their marginal rates; the
/// 256-chunk fill and the exchange refinement land within 10⁻⁶ of its output (a search over the
/// split on the exact models gives the optimum).
#[test]
fn parallel_constant_product_pools_reach_the_optimum() {
    let (a, b) = (addr(1), addr(2));
    for reserves in [
        vec![(1_000u128, 2_000u128), (1_000, 2_000)],
        vec![(1_000, 2_000), (300, 610)],
        vec![(5_000, 9_000), (800, 1_700), (2_000, 3_900)],
    ] {
        let pools = reserves
            .iter()
            .enumerate()
            .map(|(k, (x, y))| cp_pool(k as u8 + 1, "UNIV2", a, b, x * E18, y * E18))
            .collect();
        let market = market_of(pools);
        let amount = 400 * E18;
        let plan = run(&market, &request(amount, 1, json!({})));
        let optimum = split_optimum(&market, U256::from(amount));
        let got = f64::from(plan.expected_amount_out);
        assert!(
            got >= optimum * (1.0 - 1e-6) && got <= optimum * (1.0 + 1e-9),
            "{got} against the optimum {optimum}"
        );
        assert_ne!(plan.strategy, Strategy::SinglePath);
    }
}

/// The best split of `amount` over the market's direct pools A → B, by coordinate search on the
/// exact models (the output is concave in each pool's share).
fn split_optimum(market: &Market, amount: U256) -> f64 {
    let hops: Vec<Hop> =
        market.edge(market.token(&addr(1)).unwrap(), market.token(&addr(2)).unwrap()).to_vec();
    let value = |w: &[f64]| -> f64 {
        let total: f64 = w.iter().sum();
        hops.iter()
            .zip(w)
            .map(|(h, x)| {
                let x = U256::from((f64::from(amount) * x / total) as u128);
                f64::from(
                    market
                        .pool(h.pool)
                        .state
                        .amount_out(h.token_in as usize, h.token_out as usize, x)
                        .unwrap()
                        .amount_out,
                )
            })
            .sum()
    };
    let mut w = vec![1.0; hops.len()];
    let mut step = 0.5;
    while step > 1e-9 {
        let mut moved = false;
        for k in 0..w.len() {
            for dir in [1.0 + step, 1.0 / (1.0 + step)] {
                let mut t = w.clone();
                t[k] *= dir;
                if value(&t) > value(&w) {
                    w = t;
                    moved = true;
                }
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    value(&w)
}

/// One deep pool A → X=3, then two pools X → B: only a tree (or paths sharing the first pool) splits.
fn shared_first_pool() -> Market {
    let (a, b, x) = (addr(1), addr(2), addr(3));
    market_of(vec![
        cp_pool(1, "UNIV2", a, x, 100_000 * E18, 100_000 * E18),
        cp_pool(2, "UNIV2", x, b, 1_000 * E18, 1_000 * E18),
        cp_pool(3, "UNIV2", x, b, 800 * E18, 820 * E18),
    ])
}

/// Fill-and-spill re-splits X across both pools.
#[test]
fn a_tree_through_a_shared_first_pool_beats_any_single_path() {
    let market = shared_first_pool();
    let plan = run(&market, &request(300 * E18, 2, json!({})));
    assert_eq!(plan.strategy, Strategy::FillAndSpill);
    assert_eq!(plan.swaps.len(), 3, "the shared pool is one swap");
    assert_eq!(replay(&market, &plan), plan.expected_amount_out);
    assert!(plan.expected_amount_out > best_single(&market, 2, U256::from(300 * E18)));
}

#[test]
fn gas_that_costs_more_than_a_split_gains_keeps_the_single_path() {
    let (a, b) = (addr(1), addr(2));
    // B is the native token, so gas is priced in it at one to one.
    let market = market_of(vec![
        cp_pool(1, "UNIV2", a, b, 1_000 * E18, 1_000 * E18),
        cp_pool(2, "UNIV2", a, b, 1_000 * E18, 1_000 * E18),
    ]);
    let ask = |gas_price: &str| {
        let r = request(E18, 1, json!({ "gasPriceWei": gas_price }));
        waterfill(
            &market,
            &settings(addr(2)),
            &r,
            &GasPricers::default(),
            &Depths::default(),
            &MonotonicClock,
        )
        .unwrap()
    };
    assert_ne!(ask("0").strategy, Strategy::SinglePath, "free gas: the split pays a little more");
    let priced = ask("100000000000");
    assert_eq!(priced.strategy, Strategy::SinglePath);
    assert_eq!(
        priced.gas_cost_in_token_out,
        U256::from(priced.gas_units) * U256::from(100_000_000_000u64)
    );
}

#[test]
fn splitting_off_answers_the_single_path_and_pool_disjoint_leaves_fill_and_spill_out() {
    let market = shared_first_pool();
    let single = run(&market, &request(300 * E18, 2, json!({ "splitEnabled": false })));
    assert_eq!(
        (single.strategy, single.expected_amount_out),
        (Strategy::SinglePath, best_single(&market, 2, U256::from(300 * E18)))
    );
    // Both paths share pool 1, so no pool-disjoint split exists.
    let disjoint = run(&market, &request(300 * E18, 2, json!({ "enforcePoolDisjoint": true })));
    assert_eq!(disjoint.strategy, Strategy::SinglePath);
}

#[test]
fn past_its_budget_it_keeps_what_it_has_and_says_so() {
    let market = random_market(&mut Rng(77));
    let r = request(10 * E18, 3, json!({ "timeBudgetMs": 40 }));
    let full = run(&market, &request(10 * E18, 3, json!({})));
    for budget in [1u32, 5, 20, 40] {
        let r = QuoteRequest { time_budget_ms: Some(budget), ..r.clone() };
        let clock = SteppingClock::default();
        let Ok(plan) = waterfill(
            &market,
            &settings(addr(9)),
            &r,
            &GasPricers::default(),
            &Depths::default(),
            &clock,
        ) else {
            continue;
        };
        assert_eq!(replay(&market, &plan), plan.expected_amount_out);
        assert!(
            plan.expected_amount_out <= full.expected_amount_out
                || plan.stopped_by == crate::route::plan::StoppedBy::Budget
        );
        assert_eq!(
            plan.stopped_by,
            crate::route::plan::StoppedBy::Budget,
            "a stepping clock passes {budget} ms"
        );
    }
}

#[test]
fn discovery_ranks_parallel_pools_by_what_they_pay() {
    let (a, b) = (addr(1), addr(2));
    let market = market_of(vec![
        cp_pool(1, "UNIV2", a, b, 2_000_000 * E18, 264 * E18),
        cp_pool(2, "UNIV2", a, b, 2_000_000 * E18, 5_700 * E18),
    ]);
    let query = super::Query {
        token_in: market.token(&a).unwrap(),
        token_out: market.token(&b).unwrap(),
        max_hops: 3,
        dexes: DexMask::ALL,
    };
    let paths = super::discovery::discover(
        &market,
        &query,
        U256::from(1_000 * E18),
        &mut Default::default(),
        &Deadline::never(),
    );
    let deep = market.pool_by_id(&crate::address::Address([0xa0 ^ 2; 20]).to_string()).unwrap();
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0].hops[0].pool, deep, "the deeper pool pays more, so it ranks first");
}

#[test]
fn depth_is_the_input_that_moves_the_spot_price_by_one_percent() {
    let (a, b) = (addr(1), addr(2));
    let market = market_of(vec![cp_pool(1, "UNIV2", a, b, 1_000 * E18, 3_000 * E18)]);
    let hop = market.edge(market.token(&a).unwrap(), market.token(&b).unwrap())[0];
    let depth = Depths::default().get(&market, hop).unwrap();
    // The whole input stays in the pool, the fee included: x' = x + d and y' = x·y / (x + 0.997·d),
    // so the spot γ·y'/x' falls by x² / ((x + 0.997·d)(x + d)), which is 0.99 at d = t·x with
    // 0.997·t² + 1.997·t − (1/0.99 − 1) = 0.
    let c = 1.0 / (1.0 - DEPTH_SLIPPAGE) - 1.0;
    let t = (-1.997 + (1.997f64 * 1.997 + 4.0 * 0.997 * c).sqrt()) / (2.0 * 0.997);
    let expected = 1_000.0 * 1e18 * t;
    assert!((depth / expected - 1.0).abs() < 1e-4, "depth {depth} against {expected}");
}
