//! The pooled term against the exact StableSwap model (no chain, no server): random pools of 2 to
//! 4 coins, random sequences of swaps on random pairs, valued at random prices; the joint term is
//! never below what a sequence is worth, while the best single pair's term (what a two-token venue
//! gets) is, for sequences that trade several pairs.

use super::*;
use crate::market::Market;
use crate::math::U256;
use crate::pools::{PoolModel, PoolState};
use crate::route::test_market::{addr, market_of, Rng};
use crate::route::test_pools::random_curve_pool;

#[test]
fn ln_ratio_matches_the_logarithm() {
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let a = rng.log_amount(0, 30) as f64 * 10f64.powi(rng.range(0, 200) as i32 - 100);
        let b = rng.log_amount(0, 30) as f64;
        let want = (a / b).ln();
        let got = ln_ratio(a, b);
        assert!(
            (got - want).abs() <= 1e-14 * want.abs().max(1e-3),
            "ln({a}/{b}) = {want}, got {got}"
        );
    }
    // Near 1, from the difference: no cancellation.
    let tiny = 2f64.powi(-40);
    let got = ln_ratio(1.0 + tiny, 1.0);
    assert!((got - (tiny - tiny * tiny / 2.0)).abs() <= 1e-15 * tiny);
}

fn pool_of(market: &Market) -> &crate::pools::stableswap::StableSwapPool {
    match &market.pool(0).state {
        PoolState::StableSwap(p) => p,
        _ => unreachable!("a Curve pool"),
    }
}

/// Per coin, the raw amounts a random sequence of swaps put in and took out; None if a swap fails.
fn sequence(
    rng: &mut Rng,
    state: &PoolState,
    coins: usize,
    pairs: &[(usize, usize)],
) -> Option<(Vec<f64>, Vec<f64>)> {
    let (mut ins, mut outs) = (vec![0.0; coins], vec![0.0; coins]);
    let mut state = state.clone();
    for _ in 0..rng.range(1, 9) {
        let (i, j) = pairs[rng.range(0, pairs.len() as u64) as usize];
        let PoolState::StableSwap(p) = &state else { unreachable!() };
        let balance = f64::from(p.balances[i]);
        let dx = (balance * 10f64.powf(rng.range(0, 4000) as f64 / 1000.0 - 4.5)) as u128;
        let (outcome, next) = state.apply(i, j, U256::from(dx.max(1))).ok()?;
        ins[i] += dx.max(1) as f64;
        outs[j] += f64::from(outcome.amount_out);
        state = next;
    }
    Some((ins, outs))
}

/// Per coin, the raw amounts `swaps` (coin in, coin out, amount in) put in and took out.
fn replay(
    state: &PoolState,
    coins: usize,
    swaps: &[(usize, usize, u128)],
) -> Option<(Vec<f64>, Vec<f64>)> {
    let (mut ins, mut outs) = (vec![0.0; coins], vec![0.0; coins]);
    let mut state = state.clone();
    for &(i, j, dx) in swaps.iter().filter(|s| s.2 > 0) {
        let (outcome, next) = state.apply(i, j, U256::from(dx)).ok()?;
        ins[i] += dx as f64;
        outs[j] += f64::from(outcome.amount_out);
        state = next;
    }
    Some((ins, outs))
}

#[test]
fn the_joint_term_bounds_every_sequence_of_swaps_and_one_pair_does_not() {
    let mut rng = Rng(0x9001);
    let (mut checked, mut beats_pairs) = (0, 0);
    for case in 0..600 {
        let coins = rng.range(2, 5) as usize;
        let tokens: Vec<_> = (0..coins).map(|k| addr(k as u8 + 1)).collect();
        let market = market_of(vec![random_curve_pool(&mut rng, 1, &tokens)]);
        let pool = pool_of(&market);
        let budget = pool.budget().expect("a budget");
        // Per coin a price near what its raw unit is worth in the pool (1/scale), tilted a
        // little so that trades pay; a coin's tender price is at least its receive price.
        let worth: Vec<f64> = budget
            .coins
            .iter()
            .map(|c| c.scale * (1.0 + rng.range(0, 200) as f64 / 1e4 - 0.01))
            .collect();
        let prices: Vec<CoinPrices> = worth
            .iter()
            .map(|w| {
                let spread = 1.0 + rng.range(0, 3) as f64 / 1e4;
                CoinPrices { tender: Some(w * spread), receive: Some(*w) }
            })
            .collect();
        let joint = budget.joint(&prices);
        let bound = joint.value + 1e-12 * joint.magnitude;
        let pairs: Vec<(usize, usize)> = (0..coins)
            .flat_map(|i| (0..coins).filter(move |&j| j != i).map(move |j| (i, j)))
            .collect();
        // The best single pair's term: what a max over sides would give this venue.
        let best_pair = pairs
            .iter()
            .map(|&(i, j)| {
                let mut one = vec![CoinPrices::default(); coins];
                one[i].tender = prices[i].tender;
                one[j].receive = prices[j].receive;
                budget.joint(&one).value
            })
            .fold(0.0f64, f64::max);
        // The joint's own trade, as swaps: each deposit split over the withdrawals in proportion
        // to the budget they spend (the trade a max over sides cannot see), then random ones.
        let spent: f64 = joint.budget.iter().filter(|b| **b < 0.0).map(|b| -b).sum();
        let mut swaps = Vec::new();
        for t in (0..coins).filter(|&t| joint.inputs[t] > 0.0) {
            for u in (0..coins).filter(|&u| joint.budget[u] < 0.0) {
                swaps.push((t, u, (joint.inputs[t] * -joint.budget[u] / spent) as u128));
            }
        }
        let planned = replay(&market.pool(0).state, coins, &swaps);
        for attempt in 0..40 {
            let sequence = match attempt {
                0 => planned.clone(),
                _ => sequence(&mut rng, &market.pool(0).state, coins, &pairs),
            };
            let Some((ins, outs)) = sequence else { continue };
            let value: f64 = (0..coins)
                .map(|t| prices[t].receive.unwrap() * outs[t] - prices[t].tender.unwrap() * ins[t])
                .sum();
            checked += 1;
            assert!(
                value <= bound,
                "case {case}: a sequence ({ins:?} in, {outs:?} out) is worth {value}, above the joint term {bound}"
            );
            if value > best_pair * (1.0 + 1e-9) {
                beats_pairs += 1;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} sequences");
    // The test can fail: a max over sides would be below many of these sequences.
    assert!(beats_pairs > 50, "only {beats_pairs} sequences beat the best single pair");
    eprintln!("{checked} sequences under the joint term; {beats_pairs} above the best single pair");
}

#[test]
fn the_joint_hessian_is_the_derivative_of_its_flows() {
    let mut rng = Rng(0x4e55);
    for _ in 0..200 {
        let coins = rng.range(2, 5) as usize;
        let tokens: Vec<_> = (0..coins).map(|k| addr(k as u8 + 1)).collect();
        let market = market_of(vec![random_curve_pool(&mut rng, 1, &tokens)]);
        let budget = pool_of(&market).budget().unwrap();
        let prices: Vec<CoinPrices> = budget
            .coins
            .iter()
            .map(|c| {
                let w = c.scale * (1.0 + rng.range(0, 200) as f64 / 1e4 - 0.01);
                CoinPrices { tender: Some(w * 1.0001), receive: Some(w) }
            })
            .collect();
        let at = budget.joint(&prices);
        // Where nothing trades but the roundings' slack, the flows are that slack, fixed.
        if at.inputs.iter().all(|i| *i == 0.0) {
            continue;
        }
        // The gradient in variable v (2t: −input_t, 2t + 1: output_t).
        let grad = |j: &Joint, v: usize| {
            if v.is_multiple_of(2) {
                -j.inputs[v / 2]
            } else {
                j.outputs[v / 2]
            }
        };
        let n2 = 2 * coins;
        for v in 0..n2 {
            let mut moved = prices.clone();
            let h = 1e-7;
            let (t, tender) = (v / 2, v % 2 == 0);
            let base = if tender { prices[t].tender.unwrap() } else { prices[t].receive.unwrap() };
            if tender {
                moved[t].tender = Some(base * (1.0 + h));
            } else {
                moved[t].receive = Some(base * (1.0 + h));
            }
            let next = budget.joint(&moved);
            for w in 0..n2 {
                let numeric = (grad(&next, w) - grad(&at, w)) / (base * h);
                let exact = at.hessian[w * n2 + v];
                let scale =
                    (0..n2).map(|k| at.hessian[k * n2 + k].abs()).fold(0.0, f64::max).sqrt()
                        * at.hessian[w * n2 + w].abs().sqrt();
                assert!(
                    (numeric - exact).abs() <= 1e-3 * scale.max(exact.abs()) + 1e-9,
                    "∂²/∂{v}∂{w}: numeric {numeric}, closed form {exact}; {budget:?} {prices:?} {at:?} {next:?}"
                );
            }
        }
    }
}
