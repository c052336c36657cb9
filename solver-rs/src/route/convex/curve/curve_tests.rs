//! Each family's curve against its exact model: never below what one swap or any sequence of
//! swaps pays (random states and amounts, every family, protocol fees and empty ranges included),
//! close to it where the model has no slack, and its responses are the best trades.

use super::{Curve, MAX_SWAPS_PER_POOL};
use crate::address::Address;
use crate::market::Market;
use crate::math::U256;
use crate::pools::input::PoolInput;
use crate::pools::{PoolModel, PoolState};
use crate::route::test_market::{
    addr, cl_pool, cp_pool, market_of, sampled_pool, solidly_pool, Rng,
};

/// Room for floating point in the comparisons (the curves are evaluated to ~1e-14).
const FLOAT: f64 = 1e-11;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Family {
    ConstantProduct,
    SolidlyVolatile,
    SolidlyStable,
    Concentrated,
    Sampled,
}
const FAMILIES: [Family; 5] = [
    Family::ConstantProduct,
    Family::SolidlyVolatile,
    Family::SolidlyStable,
    Family::Concentrated,
    Family::Sampled,
];

/// A concave sampled curve near rate `rate`, falling along its samples.
fn samples(rng: &mut Rng, scale: u128, rate: f64) -> Vec<(U256, U256)> {
    let (mut x, mut y, mut rate) = (0u128, 0u128, rate);
    (0..rng.range(2, 12))
        .map(|_| {
            let dx = scale / 8 + rng.range(0, 1000) as u128 * (scale / 1000);
            x += dx;
            y += (dx as f64 * rate) as u128;
            rate *= 0.6 + rng.range(0, 400) as f64 / 1000.0;
            (U256::from(x), U256::from(y))
        })
        .collect()
}

fn random_pool(rng: &mut Rng, family: Family, tokens: [Address; 2]) -> PoolInput {
    let reserve = |rng: &mut Rng| rng.log_amount(15, 27);
    match family {
        Family::ConstantProduct => {
            let dex = if rng.range(0, 2) == 0 { "UNIV2" } else { "PANCAKE_V2" };
            cp_pool(1, dex, tokens[0], tokens[1], reserve(rng), reserve(rng))
        }
        Family::SolidlyVolatile => {
            let decimals = [[18, 6], [6, 18], [18, 18], [8, 12]][rng.range(0, 4) as usize];
            solidly_pool(
                1,
                tokens,
                [reserve(rng), reserve(rng)],
                false,
                decimals,
                rng.range(0, 301) as u32,
            )
        }
        Family::SolidlyStable => {
            let decimals = [[18, 18], [6, 6], [18, 6], [6, 18]][rng.range(0, 4) as usize];
            let tokens0 = rng.log_amount(3, 9) as f64;
            let tokens1 = tokens0 * (0.3 + rng.range(0, 1400) as f64 / 1000.0);
            let raw = |whole: f64, d: u32| (whole * 10f64.powi(d as i32)) as u128;
            solidly_pool(
                1,
                tokens,
                [raw(tokens0, decimals[0]), raw(tokens1, decimals[1])],
                true,
                decimals,
                rng.range(0, 31) as u32,
            )
        }
        Family::Concentrated => {
            let (dex, fee, protocol) = match rng.range(0, 4) {
                0 => ("UNIV3", [100, 500, 3000, 10_000][rng.range(0, 4) as usize], None),
                1 => (
                    "UNIV4",
                    500,
                    Some((rng.range(0, 1001) as u32) << 12 | rng.range(0, 1001) as u32),
                ),
                2 => (
                    "PANCAKE_INFINITY_CL",
                    2500,
                    Some((rng.range(0, 4001) as u32) << 12 | rng.range(0, 4001) as u32),
                ),
                _ => ("QUICKSWAP_V4", rng.range(100, 15_000) as u32, None),
            };
            let tick = rng.range(0, 40_000) as i32 - 20_000;
            let around = tick - tick.rem_euclid(60);
            // Some pools sit in a range with no liquidity, and ranges leave gaps.
            let positions: Vec<(i32, i32, u128)> = (0..rng.range(1, 6))
                .map(|_| {
                    let lower = around + 60 * (rng.range(0, 60) as i32 - 40);
                    (lower, lower + 60 * rng.range(1, 60) as i32, rng.log_amount(15, 26))
                })
                .collect();
            cl_pool(1, dex, tokens, tick, fee, protocol, &positions)
        }
        Family::Sampled => {
            let scale = reserve(rng);
            let rate = 10f64.powf(rng.range(0, 6000) as f64 / 1000.0 - 3.0);
            let (forward, backward) = (
                samples(rng, scale, rate),
                samples(rng, (scale as f64 * rate) as u128 + 1, 1.0 / rate),
            );
            sampled_pool(1, "PROPSWAP", tokens, rng.range(0, 50) as u32, &forward, &backward)
        }
    }
}

fn pool_state(market: &Market) -> &PoolState {
    &market.pool(0).state
}

/// An amount in raw units spanning dust to far past the pool's depth.
fn amount(rng: &mut Rng) -> u128 {
    rng.log_amount(0, 30)
}

#[test]
fn no_swap_and_no_sequence_of_swaps_pays_more_than_the_curve() {
    let mut rng = Rng(0x0c0e_cafe);
    let (a, b) = (addr(1), addr(2));
    let mut checked = [0usize; 5];
    for case in 0..3000 {
        let family = FAMILIES[case % FAMILIES.len()];
        let market = market_of(vec![random_pool(&mut rng, family, [a, b])]);
        let state = pool_state(&market);
        for (i, o) in [(0usize, 1usize), (1, 0)] {
            let Some(curve) = Curve::of(state, i, o) else { continue };
            // One swap.
            let x = amount(&mut rng);
            if let Ok(outcome) = state.amount_out(i, o, U256::from(x)) {
                let bound = curve.value(x as f64);
                assert!(
                    f64::from(outcome.amount_out) <= bound * (1.0 + FLOAT),
                    "case {case} {family:?} {i}→{o}: {x} pays {} > {bound}",
                    outcome.amount_out
                );
                checked[family as usize] += 1;
            }
            // A sequence of swaps in one direction, each on the state the last one left.
            let parts = rng.range(2, 9) as usize;
            let mut current = state.clone();
            let (mut total_in, mut total_out) = (0f64, 0f64);
            for _ in 0..parts {
                let piece = amount(&mut rng) / (1 + rng.range(0, 1000) as u128);
                match current.apply(i, o, U256::from(piece)) {
                    Ok((outcome, next)) => {
                        total_in += piece as f64;
                        total_out += f64::from(outcome.amount_out);
                        current = next;
                    }
                    Err(_) => break,
                }
            }
            let bound = curve.value(total_in);
            assert!(total_out <= bound * (1.0 + FLOAT), "case {case} {family:?} {i}→{o}: a sequence of {total_in} paid {total_out} > {bound}; {:?} {}", state, market.pool(0).dex);
        }
    }
    for family in FAMILIES {
        assert!(
            checked[family as usize] > 200,
            "{family:?}: only {} swaps checked",
            checked[family as usize]
        );
    }
}

#[test]
fn the_curve_is_tight_where_the_model_has_no_slack() {
    // Constant product, concentrated and sampled curves differ from the exact model by its integer
    // roundings only: within a few raw units per tick crossed (here: 1e-9 of the output).
    let mut rng = Rng(0x0c0e_0002);
    let (a, b) = (addr(1), addr(2));
    for case in 0..1500 {
        let family = [Family::ConstantProduct, Family::Concentrated, Family::Sampled][case % 3];
        let market = market_of(vec![random_pool(&mut rng, family, [a, b])]);
        let state = pool_state(&market);
        for (i, o) in [(0usize, 1usize), (1, 0)] {
            let Some(curve) = Curve::of(state, i, o) else { continue };
            let x = rng.log_amount(12, 28);
            if let Ok(outcome) = state.amount_out(i, o, U256::from(x)) {
                let exact = f64::from(outcome.amount_out);
                if exact < 1e12 {
                    continue;
                }
                let bound = curve.value(x as f64);
                assert!(
                    bound <= exact * (1.0 + 1e-9) + 100.0,
                    "case {case} {family:?}: curve {bound} far above exact {exact}"
                );
            }
        }
    }
}

#[test]
fn solidly_curves_are_within_their_rounding_slack() {
    let mut rng = Rng(0x0c0e_0003);
    let (a, b) = (addr(1), addr(2));
    for case in 0..1000 {
        let family = if case % 2 == 0 { Family::SolidlyVolatile } else { Family::SolidlyStable };
        let market = market_of(vec![random_pool(&mut rng, family, [a, b])]);
        let state = pool_state(&market);
        let Some(curve) = Curve::of(state, 0, 1) else { continue };
        let x = rng.log_amount(10, 26);
        if let Ok(outcome) = state.amount_out(0, 1, U256::from(x)) {
            let exact = f64::from(outcome.amount_out);
            // The slack: MAX_SWAPS_PER_POOL raw units of net input at the first rate, plus a stable
            // pool's 10⁻¹⁸-token rounding room (negligible at these sizes).
            let allowed =
                f64::from(MAX_SWAPS_PER_POOL) * curve.first_rate() * 2.0 + 1e-7 * exact + 10.0;
            let bound = curve.value(x as f64);
            assert!(bound <= exact + allowed, "case {case} {family:?}: curve {bound} exceeds exact {exact} by more than {allowed}");
        }
    }
}

#[test]
fn a_response_is_the_best_trade_at_its_rate() {
    let mut rng = Rng(0x0c0e_0004);
    let (a, b) = (addr(1), addr(2));
    for case in 0..2000 {
        let family = FAMILIES[case % FAMILIES.len()];
        let market = market_of(vec![random_pool(&mut rng, family, [a, b])]);
        let state = pool_state(&market);
        let Some(curve) = Curve::of(state, 0, 1) else { continue };
        let first = curve.first_rate();
        if first.is_nan() || first <= 0.0 {
            continue;
        }
        let rate = first * 10f64.powf(-(rng.range(0, 4000) as f64) / 1000.0);
        let best = curve.respond(rate);
        let surplus = |input: f64| curve.value(input) - rate * input;
        let at = best.output - rate * best.input;
        assert!(
            (best.output - curve.value(best.input)).abs() <= 1e-9 * best.output.max(1.0),
            "case {case} {family:?}: output is not the curve's value"
        );
        for factor in [0.0, 0.5, 0.9, 0.999, 1.001, 1.1, 2.0, 10.0] {
            let other = surplus(best.input * factor);
            assert!(
                other <= at + 1e-9 * best.output.max(1.0),
                "case {case} {family:?}: {factor}× the response does better ({other} > {at})"
            );
        }
        assert!(
            best.slope >= 0.0 && best.slope.is_finite(),
            "case {case} {family:?}: slope {}",
            best.slope
        );
    }
}

#[test]
fn stable_responses_fall_with_the_rate_up_to_the_first_rate() {
    // Near its first rate a stable pool's level curve is almost flat (its slope is flat at equal
    // reserves): the root of the rate equation is where the searches are most fragile. A first
    // bisection that landed back on the starting guess was once taken for a root, so rates just
    // below the first rate answered a trade far past the best one (and the dual a negative term).
    let mut rng = Rng(0x0c0e_0005);
    let (a, b) = (addr(1), addr(2));
    for case in 0..400 {
        let market = market_of(vec![random_pool(&mut rng, Family::SolidlyStable, [a, b])]);
        for (i, j) in [(0, 1), (1, 0)] {
            let Some(curve) = Curve::of(pool_state(&market), i, j) else { continue };
            let first = curve.first_rate();
            let mut previous = f64::INFINITY;
            for k in 0..60 {
                let rate = first * (1.0 - 0.1 * f64::powi(0.8, k));
                let best = curve.respond(rate);
                let at = best.output - rate * best.input;
                assert!(at >= curve.value(0.0) * (1.0 - FLOAT), "case {case} ({i}→{j}), rate {rate}: the response pays {at}, less than no trade");
                for factor in [0.5, 0.9, 0.99, 1.01, 1.1] {
                    let other = curve.value(best.input * factor) - rate * best.input * factor;
                    assert!(
                        other <= at + 1e-9 * best.output.max(1.0),
                        "case {case} ({i}→{j}), rate {rate}: {factor}× the response does better"
                    );
                }
                assert!(
                    best.input <= previous * (1.0 + 1e-9),
                    "case {case} ({i}→{j}): the input rose with the rate to {rate}"
                );
                previous = best.input;
            }
        }
    }
}
