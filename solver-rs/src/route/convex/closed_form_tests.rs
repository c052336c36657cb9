//! The bound against closed forms: parallel constant-product pools (the water level where every
//! active pool's marginal rate is equal), chains of pools (a composition of constant-product
//! curves), and one concentrated pool crossing ticks (its ranges walked with prices computed
//! here from 1.0001^tick). Within 10⁻⁶ bps, and never below.

use super::bound;
use crate::math::U256;
use crate::route::clock::Deadline;
use crate::route::test_market::{addr, any_scope, cl_pool, cp_pool, market_of, Rng};

/// 10⁻⁶ bps.
const CLOSE: f64 = 1e-10;

/// The references are computed in f64 with differences of nearly equal numbers (a water level is
/// a price known to 10⁻¹⁶), good to about 10⁻¹² for the sizes drawn: that is the room below.
fn check(case: usize, got: U256, exact: f64) {
    let got = f64::from(got);
    assert!(got >= exact * (1.0 - 1e-12), "case {case}: bound {got} below the optimum {exact}");
    assert!(
        got <= exact * (1.0 + CLOSE) + 1.0,
        "case {case}: bound {got} above the optimum {exact} by {} bps",
        (got / exact - 1.0) * 1e4
    );
}

/// Σ out over parallel pools (reserve in, reserve out, 1 − fee) at the common marginal rate λ:
/// each active pool takes x = (√(γRS/λ) − R)/γ, so 1/√λ = (A + Σ R/γ) / Σ √(RS/γ) over the
/// active set, and the output is Σ (S − √(λRS/γ)). Pools whose x would be negative drop out.
fn parallel_optimum(pools: &[(f64, f64, f64)], amount: f64) -> f64 {
    let mut active: Vec<usize> = (0..pools.len()).collect();
    loop {
        let sum_root: f64 =
            active.iter().map(|&i| (pools[i].0 * pools[i].1 / pools[i].2).sqrt()).sum();
        let sum_r: f64 = active.iter().map(|&i| pools[i].0 / pools[i].2).sum();
        let root_lambda = sum_root / (amount + sum_r);
        let lambda = root_lambda * root_lambda;
        let inactive: Vec<usize> = active
            .iter()
            .copied()
            .filter(|&i| {
                ((pools[i].2 * pools[i].0 * pools[i].1 / lambda).sqrt() - pools[i].0) < 0.0
            })
            .collect();
        if inactive.is_empty() {
            return active
                .iter()
                .map(|&i| pools[i].1 - (lambda * pools[i].0 * pools[i].1 / pools[i].2).sqrt())
                .sum();
        }
        active.retain(|i| !inactive.contains(i));
    }
}

#[test]
fn parallel_constant_product_pools() {
    let mut rng = Rng(0xb0_0001);
    let (a, b) = (addr(1), addr(2));
    for case in 0..200 {
        let count = rng.range(1, 7) as usize;
        let mut pools = Vec::new();
        let mut reference = Vec::new();
        for k in 0..count {
            let depth = rng.log_amount(18, 27);
            let price = rng.range(9_000, 11_000) as f64 / 10_000.0 * 3.0;
            let dex = if rng.range(0, 2) == 0 { "UNIV2" } else { "PANCAKE_V2" };
            let gamma = if dex == "UNIV2" { 0.997 } else { 0.9975 };
            let (r, s) = (depth, (depth as f64 * price) as u128);
            pools.push(cp_pool(k as u8, dex, a, b, r, s));
            reference.push((r as f64, s as f64, gamma));
        }
        let market = market_of(pools);
        let depth: f64 = reference.iter().map(|p| p.0).sum();
        let amount = (depth * 10f64.powf(rng.range(0, 4500) as f64 / 1000.0 - 3.5)) as u128;
        let got =
            bound(&market, &any_scope(&market, a, b, 1), U256::from(amount), &Deadline::never())
                .unwrap();
        check(case, got, parallel_optimum(&reference, amount as f64));
    }
}

#[test]
fn chains_of_constant_product_pools() {
    // out = S·γn/(R + γn) composed along the chain: one path, so the optimum is the chain's output.
    let mut rng = Rng(0xb0_0002);
    let tokens = [addr(1), addr(3), addr(4), addr(2)];
    for case in 0..200 {
        let hops = rng.range(2, 4) as usize;
        let mut pools = Vec::new();
        let mut chain = Vec::new();
        for k in 0..hops {
            let (r, s) = (rng.log_amount(18, 26), rng.log_amount(18, 26));
            let dex = if rng.range(0, 2) == 0 { "UNIV2" } else { "PANCAKE_V2" };
            let gamma = if dex == "UNIV2" { 0.997 } else { 0.9975 };
            let to = if k + 1 == hops { tokens[3] } else { tokens[k + 1] };
            pools.push(cp_pool(k as u8 + 1, dex, tokens[k], to, r, s));
            chain.push((r as f64, s as f64, gamma));
        }
        let market = market_of(pools);
        let amount = rng.log_amount(14, 27);
        let exact = chain.iter().fold(amount as f64, |x, &(r, s, g)| s * g * x / (r + g * x));
        let got = bound(
            &market,
            &any_scope(&market, tokens[0], tokens[3], hops),
            U256::from(amount),
            &Deadline::never(),
        )
        .unwrap();
        check(case, got, exact);
    }
}

/// √(1.0001^tick), computed here without the pool's TickMath.
fn sqrt_price(tick: i32) -> f64 {
    1.0001f64.powf(tick as f64 / 2.0)
}

/// What a concentrated pool pays in real numbers selling token0 (price falling) or token1, from
/// the price of `tick`, for `amount` of gross input: the ranges walked one by one.
fn concentrated_out(
    positions: &[(i32, i32, u128)],
    tick: i32,
    fee: f64,
    zero_for_one: bool,
    amount: f64,
) -> f64 {
    let mut boundaries: Vec<i32> = positions.iter().flat_map(|p| [p.0, p.1]).collect();
    boundaries.sort_unstable();
    boundaries.dedup();
    let liquidity_at =
        |t: i32| positions.iter().filter(|p| p.0 <= t && t < p.1).map(|p| p.2 as f64).sum::<f64>();
    let mut net = amount * (1.0 - fee);
    let mut out = 0.0;
    let mut q = sqrt_price(tick);
    let mut t = tick;
    loop {
        let next = if zero_for_one {
            boundaries.iter().rev().find(|&&b| b <= t).copied()
        } else {
            boundaries.iter().find(|&&b| b > t).copied()
        };
        let Some(next) = next else { return out };
        let l = liquidity_at(t);
        let q_next = sqrt_price(next);
        // Net input to reach the boundary: token0 L·(1/q' − 1/q), token1 L·(q' − q).
        let need = if zero_for_one { l * (1.0 / q_next - 1.0 / q) } else { l * (q_next - q) };
        if l > 0.0 && net <= need {
            // L·(q − q') and L·(1/q − 1/q'), written without differences of near-equal numbers.
            return out
                + if zero_for_one {
                    l * q * q * net / (l + q * net)
                } else {
                    net / (q * (q + net / l))
                };
        }
        out += if zero_for_one { l * (q - q_next) } else { l * (1.0 / q - 1.0 / q_next) };
        net -= need;
        q = q_next;
        t = if zero_for_one { next - 1 } else { next };
    }
}

#[test]
fn one_concentrated_pool_crossing_ticks() {
    let mut rng = Rng(0xb0_0003);
    let (a, b) = (addr(1), addr(2));
    let mut crossed = 0;
    for case in 0..200 {
        let tick = 60 * (rng.range(0, 400) as i32 - 200);
        // Overlapping positions around the price, with gaps, so swaps cross several ticks.
        let positions: Vec<(i32, i32, u128)> = (0..rng.range(2, 7))
            .map(|_| {
                let lower = tick + 60 * (rng.range(0, 40) as i32 - 25);
                (lower, lower + 60 * rng.range(1, 30) as i32, rng.log_amount(18, 24))
            })
            .collect();
        let (fee_pips, fee) =
            [(500, 0.0005), (3000, 0.003), (10_000, 0.01)][rng.range(0, 3) as usize];
        let market = market_of(vec![cl_pool(1, "UNIV3", [a, b], tick, fee_pips, None, &positions)]);
        let zero_for_one = rng.range(0, 2) == 0;
        let (from, to) = if zero_for_one { (a, b) } else { (b, a) };
        let active: f64 =
            positions.iter().filter(|p| p.0 <= tick && tick < p.1).map(|p| p.2 as f64).sum();
        let scale = active.max(1e18);
        let amount = (scale * 10f64.powf(rng.range(0, 3000) as f64 / 1000.0 - 3.0)) as u128;
        let exact = concentrated_out(&positions, tick, fee, zero_for_one, amount as f64);
        if exact <= 0.0 {
            continue;
        }
        if exact
            > concentrated_out(&positions, tick, fee, zero_for_one, amount as f64 * 0.01)
                * 100.0
                * 0.999
        {
            continue;
        }
        crossed += 1;
        let got = bound(
            &market,
            &any_scope(&market, from, to, 1),
            U256::from(amount),
            &Deadline::never(),
        )
        .unwrap();
        // The pool's TickMath and 1.0001^(t/2) in f64 agree to about 10⁻¹⁵.
        check(case, got, exact);
    }
    assert!(crossed > 50, "only {crossed} cases crossed a tick");
}
