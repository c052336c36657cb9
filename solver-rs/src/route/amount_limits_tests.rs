//! Quotes whose amounts reach 2^256 − 1: sampled venues paying outputs near the top of U256. Every
//! plan either fails with a clear error or is exact: its sums and minimums computed at 512 bits
//! equal what it reports (ruint's operators wrap, and a wrapped sum is a tiny `minAmountOut`).

use super::gas::GasPricers;
use super::plan::Plan;
use super::quote::quote;
use super::request::{QuoteRequest, BPS};
use super::test_market::{addr, market_of, sampled_pool, settings};
use crate::error::SolverError;
use crate::math::{U256, U512};
use proptest::prelude::*;
use serde_json::json;

fn ask(pools: &[(U256, U256)], amount_in: U256, slippage_bps: u32) -> Result<Plan, SolverError> {
    let (a, b) = (addr(1), addr(2));
    let dexes = ["PROPSWAP", "TESSERA", "FELTIR"];
    let market = market_of(
        pools
            .iter()
            .enumerate()
            .map(|(i, &sample)| sampled_pool(i as u8 + 1, dexes[i], [a, b], 0, &[sample], &[]))
            .collect(),
    );
    let request: QuoteRequest = serde_json::from_value(json!({
        "tokenIn": a.to_string(), "tokenOut": b.to_string(), "amountIn": amount_in.to_string(), "slippageBps": slippage_bps,
    }))
    .unwrap();
    quote(&market, &settings(b), &request, &GasPricers::default())
}

fn floor_min(amount: U256, slippage_bps: u32) -> U512 {
    U512::from(amount) * U512::from(BPS - slippage_bps) / U512::from(BPS)
}

/// The plan's sums and minimums against the same quantities taken at 512 bits.
fn check_exact(plan: &Plan, slippage_bps: u32) -> Result<(), TestCaseError> {
    let total: U512 = plan.routes.iter().fold(U512::ZERO, |sum, r| sum + U512::from(r.amount_out));
    prop_assert_eq!(
        U512::from(plan.expected_amount_out),
        total,
        "expectedAmountOut is not the sum of the routes"
    );
    prop_assert_eq!(
        U512::from(plan.min_amount_out),
        floor_min(plan.expected_amount_out, slippage_bps)
    );
    for route in &plan.routes {
        prop_assert!(route.amount_out <= plan.expected_amount_out);
        for leg in &route.legs {
            prop_assert_eq!(U512::from(leg.min_out), floor_min(leg.amount_out, slippage_bps));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Inputs near 2^256 − 1: three venues that each take at most part of the amount, so the
    /// optimizer splits an amountIn within 2^200 of the top, and its allocation sums (the start's,
    /// the steps', the balancing) run at the edge of U256. Every plan spends amountIn exactly
    /// (summed at 512 bits) and is exact, or the quote refuses with a clear error.
    #[test]
    fn allocations_of_an_amount_near_the_top_never_wrap(
        below_max in any::<[u64; 4]>(), shares in any::<[u8; 3]>(), outs in any::<[u128; 3]>(), slippage in 0u32..=BPS,
    ) {
        let below = U256::from_limbs([below_max[0], below_max[1], below_max[2], below_max[3] >> 8]);
        let amount_in = U256::MAX - below;
        // Each venue takes between 34 % and 99 % of the amount: no one takes all, any two may.
        let caps: Vec<U256> = shares.iter().map(|&s| amount_in / U256::from(100) * U256::from(34 + u64::from(s) % 66)).collect();
        let pools: Vec<(U256, U256)> = caps.iter().zip(outs).map(|(&cap, out)| (cap, U256::from(out.max(1)))).collect();
        match ask(&pools, amount_in, slippage) {
            Ok(plan) => {
                let spent: U512 = plan.routes.iter().fold(U512::ZERO, |sum, r| sum + U512::from(r.amount_in));
                prop_assert_eq!(spent, U512::from(amount_in), "the routes do not spend amountIn");
                prop_assert!(plan.routes.len() >= 2, "no venue takes the whole amount");
                check_exact(&plan, slippage)?;
            }
            Err(SolverError::NoRoute { .. }) => {}
            Err(other) => prop_assert!(false, "not a clear error: {other:?}"),
        }
    }

    /// Gas figures near 2^64: summed or turned into a plan's transaction gas they saturate, never
    /// wrap into a small figure a cap would admit.
    #[test]
    fn gas_near_the_top_of_u64_saturates_and_is_refused(
        below_max in any::<[u32; 3]>(), l1 in 0u64..=crate::market::Market::MAX_LEG_OVERHEAD_GAS, legs in 2usize..=256, routes in 2usize..=64,
    ) {
        use crate::route::gas_cap::{total_gas, GasCap, MAX_PLAN_GAS};
        let units: Vec<u64> = below_max.iter().map(|&b| u64::MAX - u64::from(b)).collect();
        let total = total_gas(units.iter().copied());
        prop_assert_eq!(total, u64::MAX);
        prop_assert!(total >= units[0]);
        let cap = GasCap::with_leg_overhead(l1);
        let legs_gas = units[0];
        let plan_gas = cap.plan_gas(legs_gas, legs, routes.min(legs));
        // The legs' gas less their L1 share is at least 2^64 − 2^32 − 2^56: far over the cap.
        prop_assert!(plan_gas > MAX_PLAN_GAS, "plan gas {} from legs' gas {}", plan_gas, legs_gas);
        prop_assert!(!cap.admits(legs_gas, legs, routes.min(legs)));
        prop_assert!(!cap.admits(total, legs, routes.min(legs)));
    }

    /// Two venues that can each take only part of the amount (the plan must split) and pay
    /// outputs near 2^256 − 1: two such routes sum past it.
    #[test]
    fn split_outputs_near_the_top_never_wrap(
        amount in (1u128 << 100)..(1u128 << 120), extra in any::<[u64; 2]>(),
        below_max in any::<[u128; 2]>(), slippage in 0u32..=BPS,
    ) {
        let amount_in = U256::from(amount);
        let half = amount_in / U256::from(2);
        let pools: Vec<(U256, U256)> = (0..2)
            .map(|i| (half + U256::from(extra[i] % (amount as u64 / 4).max(1)), U256::MAX - U256::from(below_max[i])))
            .collect();
        match ask(&pools, amount_in, slippage) {
            Ok(plan) => check_exact(&plan, slippage)?,
            Err(SolverError::NoRoute { .. }) => {}
            Err(other) => prop_assert!(false, "not a clear error: {other:?}"),
        }
    }

    /// One venue takes the whole amount and pays near 2^256 − 1: the minimums must not wrap.
    #[test]
    fn a_single_output_near_the_top_keeps_its_minimum(amount in 1u128.., below_max in any::<u128>(), slippage in 0u32..=BPS) {
        let amount_in = U256::from(amount);
        let plan = ask(&[(amount_in, U256::MAX - U256::from(below_max))], amount_in, slippage).unwrap();
        prop_assert_eq!(plan.expected_amount_out, U256::MAX - U256::from(below_max));
        check_exact(&plan, slippage)?;
    }
}

#[test]
fn two_routes_whose_outputs_sum_past_the_top_are_refused_not_wrapped() {
    // Each venue takes at most 60 % of the amount and pays 2^256 − 1 for that: any split pays
    // more than 2^256 − 1 in total, and no single venue can take the whole amount.
    let amount_in = U256::from(10u64).pow(U256::from(30));
    let cap = amount_in / U256::from(10) * U256::from(6);
    let result = ask(&[(cap, U256::MAX), (cap, U256::MAX)], amount_in, 50);
    assert!(matches!(result, Err(SolverError::NoRoute { .. })), "{result:?}");
}
