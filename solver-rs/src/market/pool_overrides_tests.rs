//! A request's pool overrides: priced as a market holding those states would price them, seen by
//! that request alone, validated with clear errors, and their memo bounded.

use super::{market_with_overrides, OverriddenPools, PoolOverride, MAX_OVERRIDDEN_STATES};
use crate::error::SolverError;
use crate::math::U256;
use crate::pools::PoolState;
use crate::Solver;
use serde_json::{json, Value};

const WETH: &str = "0x4200000000000000000000000000000000000006";
const USDC: &str = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const DODO: &str = "0xd000000000000000000000000000000000000001";
const DODO_TWO: &str = "0xd000000000000000000000000000000000000002";
const UNIV2: &str = "0xa000000000000000000000000000000000000001";

/// A DSP WETH/USDC at 3,000 USDC a WETH (R one, k 0.1, LP fee 0.1 %) at maintainer rate `mt`.
fn dodo(id: &str, mt: u128) -> Value {
    json!({ "id": id, "dex": "DODO_V2", "tokens": [WETH, USDC],
            "state": { "model": "dodo_pmm", "variant": "dsp", "i": "3000000000", "k": "100000000000000000",
                       "baseReserve": "1000000000000000000000", "quoteReserve": "3000000000000",
                       "baseTarget": "1000000000000000000000", "quoteTarget": "3000000000000", "rState": 0,
                       "lpFeeRate": "1000000000000000", "mtFeeRate": mt.to_string() } })
}

/// Two DODO pools (the second at rate `mt_two`) and a UNIV2 pool beside them.
fn pools(mt: u128, mt_two: u128) -> Value {
    json!([
        dodo(DODO, mt),
        dodo(DODO_TWO, mt_two),
        { "id": UNIV2, "dex": "UNIV2", "tokens": [WETH, USDC],
          "state": { "model": "constant_product", "reserves": ["500000000000000000000", "1500000000000"] } },
    ])
}

fn solver(mt: u128, mt_two: u128) -> Solver {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    solver.upsert_pools_json(&pools(mt, mt_two).to_string()).unwrap();
    solver
}

fn request(overrides: Option<Value>) -> String {
    let mut request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "40000000000000000000",
                              "slippageBps": 50, "timeBudgetMs": 10000 });
    if let Some(overrides) = overrides {
        request["poolOverrides"] = overrides;
    }
    request.to_string()
}

fn quote(solver: &Solver, overrides: Option<Value>) -> Value {
    serde_json::from_str(&solver.quote_json(&request(overrides)).unwrap()).unwrap()
}

fn rate(id: &str, mt: u128) -> Value {
    json!({ "poolId": id, "mtFeeRate": mt.to_string() })
}

fn amount_out(plan: &Value) -> U256 {
    plan["expectedAmountOut"].as_str().unwrap().parse().unwrap()
}

#[test]
fn a_quote_with_an_override_is_the_plan_of_a_market_at_that_rate() {
    let anonymous = solver(0, 0);
    let plain = quote(&anonymous, None);
    assert!(
        plain["routes"].to_string().contains(DODO),
        "the plan trades on the DODO pool: {plain}"
    );
    for (mt, mt_two) in
        [(3_000_000_000_000_000u128, 0u128), (7_000_000_000_000_000, 2_000_000_000_000_000)]
    {
        let overridden = quote(&anonymous, Some(json!([rate(DODO, mt), rate(DODO_TWO, mt_two)])));
        assert_eq!(
            overridden,
            quote(&solver(mt, mt_two), None),
            "the plan a market at those rates makes"
        );
        assert!(amount_out(&overridden) < amount_out(&plain), "a higher rate pays less");
        // Back to back, another sender's quote never sees the override, and the market is unchanged.
        assert_eq!(quote(&anonymous, None), plain);
    }
}

#[test]
fn a_simulation_with_an_override_is_the_swap_at_that_rate() {
    let simulate = |solver: &Solver, overrides: Option<Value>| {
        let mut request =
            json!({ "poolId": DODO, "tokenIn": WETH, "amountIn": "1000000000000000000" });
        if let Some(overrides) = overrides {
            request["poolOverrides"] = overrides;
        }
        serde_json::from_str::<Value>(&solver.simulate_json(&request.to_string()).unwrap()).unwrap()
    };
    let mt = 5_000_000_000_000_000u128;
    let anonymous = solver(0, 0);
    let overridden = simulate(&anonymous, Some(json!([rate(DODO, mt)])));
    assert_eq!(overridden, simulate(&solver(mt, 0), None));
    assert_ne!(overridden, simulate(&anonymous, None));
}

#[test]
fn an_override_at_the_markets_rate_replaces_nothing() {
    let market = solver(4, 0).market().clone();
    let memo = OverriddenPools::default();
    let same = [PoolOverride {
        pool_id: DODO.to_uppercase().replace("0X", "0x"),
        mt_fee_rate: U256::from(4),
    }];
    let (_, replaced) = market_with_overrides(&market, &same, &memo).unwrap();
    assert!(replaced.is_empty() && memo.is_empty());
    let other = [PoolOverride { pool_id: DODO.into(), mt_fee_rate: U256::from(5) }];
    let (view, replaced) = market_with_overrides(&market, &other, &memo).unwrap();
    assert_eq!(replaced, vec![DODO.to_string()]);
    let slot = market.pool_by_id(DODO).unwrap();
    let rate_of = |m: &super::Market| match &m.pool(slot).state {
        PoolState::Dodo(pool) => pool.mt_fee_rate,
        _ => unreachable!(),
    };
    assert_eq!(
        (rate_of(&view), rate_of(&market), rate_of(&view.unreplaced())),
        (U256::from(5), U256::from(4), U256::from(4))
    );
}

#[test]
fn bad_overrides_are_refused_naming_the_field() {
    let anonymous = solver(0, 0);
    let one = "1000000000000000000";
    for (overrides, says) in [
        (json!([rate("0xd000000000000000000000000000000000000009", 1)]), "unknown pool"),
        (json!([rate(UNIV2, 1)]), "is a UNIV2 pool: only DODO_V2 pools take a maintainer rate"),
        (json!([{ "poolId": DODO, "mtFeeRate": "1000000000000000001" }]), "above one"),
        (json!([rate(DODO, 1), { "poolId": DODO, "mtFeeRate": one }]), "overridden twice"),
        (json!([rate("0xd0", 1)]), "0xd0"),
    ] {
        match anonymous.quote_json(&request(Some(overrides.clone()))) {
            Err(SolverError::InvalidInput { field, reason }) => {
                assert_eq!(field, "poolOverrides", "{overrides}");
                assert!(reason.contains(says), "{reason} should say {says}");
            }
            other => panic!("{overrides} answered {other:?}"),
        }
    }
    // A malformed entry is refused by the parser, naming the request.
    for malformed in
        [json!([{ "poolId": DODO }]), json!([{ "poolId": DODO, "mtFeeRate": "-1" }]), json!({})]
    {
        let error = anonymous.quote_json(&request(Some(malformed.clone()))).unwrap_err();
        assert!(matches!(error, SolverError::InvalidInput { .. }), "{malformed}: {error:?}");
    }
    // At one (the whole output to the maintainer) it is valid input; the pool then pays nothing.
    assert!(anonymous
        .quote_json(&request(Some(json!([{ "poolId": DODO, "mtFeeRate": one }]))))
        .is_ok());
}

#[test]
fn the_memo_of_overridden_states_is_bounded() {
    let market = solver(0, 0).market().clone();
    let memo = OverriddenPools::default();
    for rate in 1..=(MAX_OVERRIDDEN_STATES as u64 * 2 + 3) {
        let overrides = [PoolOverride { pool_id: DODO.into(), mt_fee_rate: U256::from(rate) }];
        market_with_overrides(&market, &overrides, &memo).unwrap();
        assert!(memo.len() <= MAX_OVERRIDDEN_STATES);
    }
    // The same rate again is the remembered state, not a new one.
    let again = [PoolOverride { pool_id: DODO.into(), mt_fee_rate: U256::from(7) }];
    let (first, _) = market_with_overrides(&market, &again, &memo).unwrap();
    let (second, _) = market_with_overrides(&market, &again, &memo).unwrap();
    let slot = market.pool_by_id(DODO).unwrap();
    assert!(std::ptr::eq(first.pool(slot), second.pool(slot)));
}
