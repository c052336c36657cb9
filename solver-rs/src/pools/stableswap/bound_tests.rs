//! The budget of an original-template pool (3pool-era: A unscaled, its own admin fee) against the
//! exact model: random pools of 2 or 3 coins, some caught mid-ramp, random runs of swaps on random
//! pairs valued at random prices; the joint term is never below what a run is worth, and the same of
//! a meta venue over an original-template base pool (the pre-factory meta pools over 3pool). (The
//! legacy and NG templates are held to the same in `route/convex/pooled_tests.rs` and
//! `meta_bound_tests.rs`.)

use super::math::{Ramp, ADMIN_FEE};
use super::{StableSwapPool, Template};
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::convex::pooled::CoinPrices;
use crate::route::test_market::Rng;

fn random_original_pool(rng: &mut Rng) -> StableSwapPool {
    let n = rng.range(2, 4) as usize;
    let tokens = rng.log_amount(4, 8) as f64;
    let decimals: Vec<u32> = (0..n).map(|_| if rng.range(0, 3) == 0 { 6 } else { 18 }).collect();
    let balances = decimals
        .iter()
        .map(|&d| {
            let units = tokens * (0.4 + rng.range(0, 800) as f64 / 1000.0) * 10f64.powi(d as i32);
            U256::from(units as u128)
        })
        .collect();
    let a0 = [5u64, 50, 200, 2000][rng.range(0, 4) as usize];
    let a1 = if rng.range(0, 2) == 0 { a0 } else { (a0 * rng.range(1, 90) / 10).max(1) };
    StableSwapPool {
        template: Template::Original,
        balances,
        rates: decimals.iter().map(|&d| U256::from(10u64).pow(U256::from(36 - d))).collect(),
        fee: U256::from([1_000_000u64, 4_000_000, 10_000_000][rng.range(0, 3) as usize]),
        offpeg_fee_multiplier: U256::ZERO,
        admin_fee: [U256::ZERO, ADMIN_FEE, U256::from(10_000_000_000u64)][rng.range(0, 3) as usize],
        ramp: Ramp {
            initial_a: U256::from(a0),
            future_a: U256::from(a1),
            initial_time: U256::ZERO,
            future_time: U256::from(86_400u64),
        },
        timestamp: U256::from(rng.range(0, 90_000)),
        base: None,
    }
}

#[test]
fn the_original_templates_budget_bounds_every_run_of_swaps() {
    let mut rng = Rng(0x3b001);
    let mut checked = 0;
    for case in 0..400 {
        let pool = random_original_pool(&mut rng);
        let n = pool.coins();
        let budget = pool.budget().expect("a budget");
        let prices: Vec<CoinPrices> = budget
            .coins
            .iter()
            .map(|c| {
                let w = c.scale * (1.0 + rng.range(0, 200) as f64 / 1e4 - 0.01);
                CoinPrices {
                    tender: Some(w * (1.0 + rng.range(0, 3) as f64 / 1e4)),
                    receive: Some(w),
                }
            })
            .collect();
        let joint = budget.joint(&prices);
        let bound = joint.value + 1e-12 * joint.magnitude;
        for _ in 0..30 {
            let (mut ins, mut outs) = (vec![0.0; n], vec![0.0; n]);
            let mut state = pool.clone();
            for _ in 0..rng.range(1, 9) {
                let i = rng.range(0, n as u64) as usize;
                let j = (i + rng.range(1, n as u64) as usize) % n;
                let scale = 10f64.powf(rng.range(0, 4000) as f64 / 1000.0 - 4.5);
                let dx = ((f64::from(state.balances[i]) * scale) as u128).max(1);
                let Ok((outcome, next)) = state.apply(i, j, U256::from(dx)) else { break };
                ins[i] += dx as f64;
                outs[j] += f64::from(outcome.amount_out);
                state = next;
            }
            let value: f64 = (0..n)
                .map(|t| prices[t].receive.unwrap() * outs[t] - prices[t].tender.unwrap() * ins[t])
                .sum();
            checked += 1;
            assert!(value <= bound, "case {case}: a run worth {value} is above the term {bound}");
        }
    }
    assert!(checked >= 12_000, "only {checked} runs");
}

#[test]
fn a_meta_venue_over_an_original_base_pool_keeps_every_run_under_its_budget() {
    let mut rng = Rng(0x3b002);
    let (mut checked, mut across) = (0, 0);
    for case in 0..200 {
        let mut pool = super::meta_bound::tests::random_meta(&mut rng);
        let base = pool.base.as_mut().expect("a meta venue");
        // The same base pool on the original template: A as it is (the legacy A / 100), its own
        // admin fee.
        base.pool.template = Template::Original;
        for a in [&mut base.pool.ramp.initial_a, &mut base.pool.ramp.future_a] {
            *a /= U256::from(100u64);
        }
        base.pool.admin_fee =
            [U256::ZERO, ADMIN_FEE, U256::from(10_000_000_000u64)][rng.range(0, 3) as usize];
        let budget = pool.budget().expect("a meta venue's budget");
        let (c, a) = super::meta_bound::tests::runs_stay_under_the_joint_term(
            &mut rng,
            &pool,
            &budget,
            case,
            &[],
        );
        checked += c;
        across += a;
    }
    assert!(checked >= 7_000 && across > 500, "{checked} runs, {across} across both pools");
}
