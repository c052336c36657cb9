//! The vault's per-hop term (`convex/pooled_vault_hop.rs` on [`super::pooled_hops`]) against the
//! exact integer swap: the joint budget's random vaults and runs (`joint_tests.rs`), each swap
//! given a random hop of three. A run's flows valued at any prices per (coin, hop) never exceed
//! the term there: at random prices around the oracle's, and at each hop's own constraint's
//! normal (the prices at which the term is that hop's slack). What makes the check able to fail
//! is the constraint's own test (`joint_tests.rs`: the same runs break it without the oracle's
//! room); here the program's answer is checked against the runs, and counted below the joint
//! budget's term (the per-hop rows binding).

use super::super::joint::{joint_budget, pooled_budget};
use super::super::joint_tests::{random_run, Flow};
use super::super::tests::{pool_of, random_case};
use super::super::WoofiPool;
use super::pooled_hops;
use crate::route::convex::curve::MAX_SWAPS_PER_POOL;
use crate::route::convex::graph::Head;
use crate::route::convex::pooled::{Budget, CoinPrices};
use crate::route::convex::pooled_vault_hop::{hop_value, HopTerm, PooledHops};
use crate::route::test_market::Rng;

const HOPS: usize = 3;

/// Slots for every coin at every hop: coin t at hop h tenders from copy 2·(h·n + t) and is
/// received at copy 2·(h·n + t) + 1.
fn all_slots(term: HopTerm, n: usize) -> PooledHops {
    let slot = |t: usize, h: usize| 2 * (h * n + t);
    let cells = (0..HOPS).flat_map(|h| (0..n).map(move |t| (t, h)));
    PooledHops {
        term,
        tenders: cells.clone().map(|(t, h)| (t, h, slot(t, h))).collect(),
        receives: cells.map(|(t, h)| (t, h, Head::Copy(slot(t, h) + 1))).collect(),
    }
}

/// The run's value at `prices` (per copy of [`all_slots`]), its swaps at `hops`.
fn run_value(run: &[(Flow, WoofiPool)], hops: &[usize], n: usize, prices: &[f64]) -> (f64, f64) {
    let (mut value, mut size) = (0.0, 0.0);
    for (((t, input, u, output), _), &h) in run.iter().zip(hops) {
        let (paid, got) = (prices[2 * (h * n + t)] * input, prices[2 * (h * n + u) + 1] * output);
        value += got - paid;
        size += got + paid;
    }
    (value, size)
}

/// Prices at which the term is hop `h`'s constraint: that hop's deposits at their weights, its
/// withdrawals at their cost, every other slot priced out (tendered at a price no withdrawal
/// repays, received at nothing); each coin tendered at no less than it is received anywhere, as
/// the dual's prices are (`dual.rs`, `monotone`).
fn hop_normal(budget: &Budget, term: &HopTerm, n: usize, h: usize) -> Vec<f64> {
    let mut prices = vec![0.0; 2 * HOPS * n];
    for at in 0..HOPS {
        for t in 0..n {
            let c = &budget.coins[t];
            let (tender, receive) = match at == h {
                true => (term.deposit[t], c.scale / c.keep),
                false => (1e6 * term.deposit[t], 0.0),
            };
            prices[2 * (at * n + t)] = tender;
            prices[2 * (at * n + t) + 1] = receive;
        }
    }
    tender_past_receive(&mut prices, n);
    prices
}

/// Raises each coin's tender prices to its dearest receive price.
fn tender_past_receive(prices: &mut [f64], n: usize) {
    for t in 0..n {
        let dearest = (0..HOPS).map(|h| prices[2 * (h * n + t) + 1]).fold(0.0, f64::max);
        (0..HOPS).for_each(|h| prices[2 * (h * n + t)] = prices[2 * (h * n + t)].max(dearest));
    }
}

#[test]
fn no_run_of_swaps_at_any_hops_is_worth_more_than_the_vaults_per_hop_term() {
    let mut rng = Rng(0x0021_40b5);
    let (mut vaults, mut swaps, mut broken, mut tighter) = (0, 0, 0, 0);
    let runs: usize =
        std::env::var("WOOFI_HOP_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(900);
    for _ in 0..runs {
        let (_, wire) = random_case(&mut rng);
        let start = pool_of(&wire);
        let (Some(budget), Some(term), Some(joint)) =
            (pooled_budget(&start), pooled_hops(&start), joint_budget(&start, MAX_SWAPS_PER_POOL))
        else {
            continue;
        };
        let n = start.token_count();
        let run = random_run(&mut rng, &start, 24);
        let hops: Vec<usize> = run.iter().map(|_| rng.range(0, HOPS as u64) as usize).collect();
        swaps += run.len();
        vaults += 1;
        let price: Vec<f64> = joint.coins.iter().map(|c| c.price).collect();
        let slots = all_slots(term.clone(), n);
        let mut check = |prices: &[f64], what: &str| {
            let (value, size) = run_value(&run, &hops, n, prices);
            let Some((term_value, magnitude)) = hop_value(&budget, &slots, prices) else {
                panic!("{what}: no term at {prices:?}");
            };
            let room = 1e-9 * (size + magnitude) + 1e-9;
            if value > term_value + room {
                broken += 1;
                eprintln!("{what}: run {value} above the term {term_value} (room {room})");
            }
            // The joint budget alone, each coin at its cheapest tender and dearest receive, as
            // the dual prices the vault without the per-hop rows.
            let coin_prices: Vec<CoinPrices> = (0..n)
                .map(|t| {
                    let at = |k: usize| (0..HOPS).map(move |h| prices[2 * (h * n + t) + k]);
                    let receive = at(1).fold(0.0, f64::max);
                    CoinPrices {
                        tender: Some(at(0).fold(f64::INFINITY, f64::min)),
                        receive: (receive > 0.0).then_some(receive),
                    }
                })
                .collect();
            let (joint_term, _) = budget.joint_linear(&coin_prices);
            tighter += usize::from(term_value < joint_term.value * (1.0 - 1e-6) - room);
            value
        };
        for h in 0..HOPS {
            check(&hop_normal(&budget, &term, n, h), "hop normal");
        }
        for _ in 0..4 {
            // Random prices within 3 % of P per slot.
            let mut prices: Vec<f64> = (0..2 * HOPS * n)
                .map(|k| {
                    price[(k / 2) % n] * (1.0 + (rng.range(0, 60_001) as f64 - 30_000.0) / 1e6)
                })
                .collect();
            tender_past_receive(&mut prices, n);
            check(&prices, "random prices");
        }
    }
    eprintln!(
        "{vaults} vaults, {swaps} swaps: the term exceeded {broken} times; below the joint budget alone {tighter} times"
    );
    assert_eq!(broken, 0, "the per-hop term exceeded {broken} times");
    assert!(tighter > 0, "the per-hop rows never bind");
    assert!(vaults > 250 && swaps > 3000, "{vaults} vaults, {swaps} swaps");
}

/// The per-hop weights a run's own notional allows (`HopRoom::deposit_within`, what the per-hop
/// graph prices each hop of a quote by, `convex/pooled_vault_layers.rs`): on the same random vaults
/// and runs, each swap at a random hop of three, every hop's swaps obey Σ_t w_t·in_t − Σ_u
/// out_u·scale_u/keep_u ≥ −slack with w taken at the run's notional (each swap's input at its
/// coin's highest price). The same runs break it with the weights of a tenth of their notional:
/// the room is what the check turns on.
#[test]
fn each_hop_of_a_run_obeys_the_weights_its_notional_allows() {
    let mut rng = Rng(0x0021_7a31);
    let (mut vaults, mut narrowed, mut broken, mut short) = (0, 0, 0, 0);
    for _ in 0..900 {
        let (_, wire) = random_case(&mut rng);
        let start = pool_of(&wire);
        let (Some(budget), Some(term)) = (pooled_budget(&start), pooled_hops(&start)) else {
            continue;
        };
        let room = term.room.clone().expect("the vault's room");
        let run = random_run(&mut rng, &start, 24);
        let hops: Vec<usize> = run.iter().map(|_| rng.range(0, HOPS as u64) as usize).collect();
        let notional: f64 = run.iter().map(|((t, input, _, _), _)| input * room.notional[*t]).sum();
        vaults += 1;
        let rows = |weights: &[f64]| -> Vec<f64> {
            let mut rows = vec![term.slack; HOPS];
            for (((t, input, u, output), _), &h) in run.iter().zip(&hops) {
                let c = &budget.coins[*u];
                rows[h] += weights[*t] * input - output * c.scale / c.keep;
            }
            rows
        };
        let within = room.deposit_within(notional).expect("weights");
        narrowed +=
            usize::from(within.iter().zip(&term.deposit).any(|(w, d)| *w < d * (1.0 - 1e-9)));
        for (h, row) in rows(&within).iter().enumerate() {
            if *row < -1e-9 * term.slack.max(1.0) {
                broken += 1;
                eprintln!("hop {h}: row {row} at notional {notional:e}");
            }
        }
        let tenth = room.deposit_within(notional / 10.0).expect("weights");
        short += usize::from(rows(&tenth).iter().any(|r| *r < 0.0));
    }
    eprintln!(
        "{vaults} vaults: narrowed {narrowed}, broken {broken}; at a tenth of the notional broken on {short}"
    );
    assert_eq!(broken, 0, "a hop's row broke {broken} times");
    assert!(narrowed > 50, "the run's notional narrowed the weights on {narrowed} vaults only");
    assert!(short > 0, "a tenth of the notional never breaks a row: the check cannot fail");
}
