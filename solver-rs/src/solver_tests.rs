//! The solver instance across market updates: what it caches between quotes must follow the market.

use crate::error::SolverError;
use crate::Solver;
use serde_json::{json, Value};

const WETH: &str = "0x4200000000000000000000000000000000000006";
const USDC: &str = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
const TAIL: &str = "0x1111111111111111111111111111111111111111";

fn pools(usdc_per_weth: u64) -> Value {
    let weth = "1000000000000000000000";
    json!([
        { "id": "0xa000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": [WETH, USDC],
          "state": { "model": "constant_product", "reserves": [weth, (1000 * usdc_per_weth * 1_000_000).to_string()] } },
        { "id": "0xa000000000000000000000000000000000000002", "dex": "UNIV2", "tokens": [TAIL, USDC],
          "state": { "model": "constant_product", "reserves": ["1000000000000000000000000", "1000000000000"] } },
    ])
}

fn solver_with(usdc_per_weth: u64) -> Solver {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    solver.upsert_pools_json(&pools(usdc_per_weth).to_string()).unwrap();
    solver
}

fn quote(solver: &Solver) -> Value {
    let request = json!({ "tokenIn": TAIL, "tokenOut": USDC, "amountIn": "1000000000000000000000", "slippageBps": 50,
                          "gasPriceWei": "1000000000" });
    serde_json::from_str(&solver.quote_json(&request.to_string()).unwrap()).unwrap()
}

#[test]
fn gas_is_repriced_when_the_market_changes() {
    let mut solver = solver_with(3000);
    let before = quote(&solver);
    assert_eq!(quote(&solver), before, "a repeated quote on the same market is the same plan");
    // WETH doubles in USDC: the same gas costs about twice as much tokenOut.
    solver.upsert_pools_json(&pools(6000).to_string()).unwrap();
    let after = quote(&solver);
    let cost = |plan: &Value| plan["gasCostInTokenOut"].as_str().unwrap().parse::<u128>().unwrap();
    assert!(cost(&before) > 0);
    let ratio = cost(&after) as f64 / cost(&before) as f64;
    assert!(
        (1.95..2.05).contains(&ratio),
        "gas cost went from {} to {}",
        cost(&before),
        cost(&after)
    );
    // And the answer is the one a solver that never saw the old market gives.
    assert_eq!(after, quote(&solver_with(6000)));
}

fn block(solver: &mut Solver, update: Value) -> Value {
    serde_json::from_str(&solver.apply_block_json(&update.to_string()).unwrap()).unwrap()
}

#[test]
fn a_plan_names_the_block_its_market_was_applied_at() {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    assert_eq!(
        block(&mut solver, json!({ "blockNumber": 7, "upserts": pools(3000) })),
        json!({ "pools": 2, "rejected": [] })
    );
    assert_eq!(quote(&solver)["blockNumber"], 7);
    // The next block moves WETH: the plan names that block, and prices on it.
    block(&mut solver, json!({ "blockNumber": 8, "upserts": pools(6000) }));
    let at_8 = quote(&solver);
    assert_eq!(at_8["blockNumber"], 8);
    let mut fresh = solver_with(6000);
    block(&mut fresh, json!({ "blockNumber": 8 }));
    assert_eq!(at_8, quote(&fresh), "the same plan as a solver that only ever saw block 8");
}

#[test]
fn pools_changed_without_a_block_leave_the_market_without_one() {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    block(&mut solver, json!({ "blockNumber": 7, "upserts": pools(3000) }));
    solver.upsert_pools_json(&pools(3100).to_string()).unwrap();
    assert_eq!(quote(&solver)["blockNumber"], Value::Null, "state no longer read at block 7");
    block(&mut solver, json!({ "blockNumber": 9 }));
    solver.remove_pools_json(r#"["0xa000000000000000000000000000000000000009"]"#).unwrap();
    assert_eq!(quote(&solver)["blockNumber"], Value::Null);
    // A malformed id refuses the removal whole: nothing went, the block stays unset.
    assert!(solver
        .remove_pools_json(r#"["0xa000000000000000000000000000000000000001", "nope"]"#)
        .is_err());
    assert_eq!(solver.pool_count(), 2);
}

#[test]
fn a_refused_pool_leaves_the_market_and_the_rest_of_the_block_applies() {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    block(&mut solver, json!({ "blockNumber": 7, "upserts": pools(3000) }));
    let mut next = pools(6000);
    next[1]["tokens"] = json!([USDC, USDC]); // the TAIL pool: an input the market refuses
    let twice = next[0].clone();
    next.as_array_mut().unwrap().push(twice); // and the WETH pool twice
    let answer = block(&mut solver, json!({ "blockNumber": 8, "upserts": next, "removals": [] }));
    let rejected: Vec<&str> =
        answer["rejected"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        rejected,
        [
            "0xa000000000000000000000000000000000000002",
            "0xa000000000000000000000000000000000000001"
        ]
    );
    assert_eq!(
        answer["pools"], 0,
        "both refused pools left: their block-7 states are not block 8's"
    );
    assert_eq!(
        solver
            .quote_json(
                &json!({ "tokenIn": TAIL, "tokenOut": USDC, "amountIn": "1", "slippageBps": 0 })
                    .to_string()
            )
            .unwrap_err()
            .to_string()
            .split(':')
            .next(),
        Some("no route")
    );
    // A removal listed with the block goes with it.
    block(
        &mut solver,
        json!({ "blockNumber": 9, "upserts": pools(3000), "removals": ["0xA000000000000000000000000000000000000002"] }),
    );
    assert_eq!(solver.pool_count(), 1);
}

/// A direct WETH → USDC pool that pays a little less than the two-leg route through DAI.
fn direct_or_two_legs() -> Value {
    const DAI: &str = "0x50c5725949a6f0c72e6c4a641f24049a917db0cb";
    json!([
        { "id": "0xb000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": [WETH, USDC],
          "state": { "model": "constant_product", "reserves": ["1000000000000000000000", "2990000000000"] } },
        { "id": "0xb000000000000000000000000000000000000002", "dex": "UNIV2", "tokens": [WETH, DAI],
          "state": { "model": "constant_product", "reserves": ["1000000000000000000000", "3000000000000000000000000"] } },
        { "id": "0xb000000000000000000000000000000000000003", "dex": "UNIV2", "tokens": [DAI, USDC],
          "state": { "model": "constant_product", "reserves": ["100000000000000000000000000", "100000000000000"] } },
    ])
}

#[test]
fn the_l1_gas_per_leg_is_charged_per_leg_reported_and_kept_out_of_simulate() {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    let ask = |solver: &Solver| -> Value {
        let request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "1000000000000000000", "slippageBps": 0,
                              "splitEnabled": false, "gasPriceWei": "1000000000" });
        serde_json::from_str(&solver.quote_json(&request.to_string()).unwrap()).unwrap()
    };
    let legs = |plan: &Value| plan["routes"][0]["legs"].as_array().unwrap().len() as u64;
    block(&mut solver, json!({ "blockNumber": 1, "upserts": direct_or_two_legs() }));
    let free = ask(&solver);
    assert_eq!(free["l1GasPerLeg"], 0);
    assert_eq!(legs(&free), 2, "without an L1 fee the two-leg route pays more net");
    // An L1 fee of 1,000,000 gas per leg (0.001 WETH, about 3 USDC): the second leg costs more than it gains (about 1 USDC).
    block(&mut solver, json!({ "blockNumber": 2, "l1GasPerLeg": 1_000_000 }));
    let charged = ask(&solver);
    assert_eq!(charged["l1GasPerLeg"], 1_000_000);
    assert_eq!(legs(&charged), 1, "a route with more legs costs more calldata");
    let simulated: Value = serde_json::from_str(&solver.simulate_json(&json!({ "poolId": "0xb000000000000000000000000000000000000001", "tokenIn": WETH, "amountIn": "1000000000000000000" }).to_string()).unwrap()).unwrap();
    assert_eq!(
        charged["gasUnits"].as_u64().unwrap(),
        simulated["gasUnits"].as_u64().unwrap() + 1_000_000,
        "gasUnits carry the L1 gas, simulate does not"
    );
    // Absent in the next block: back to 0, and the market prices as before.
    block(&mut solver, json!({ "blockNumber": 3 }));
    assert_eq!(ask(&solver)["routes"], free["routes"]);
}

#[test]
fn an_l1_gas_per_leg_above_its_bound_is_refused_before_anything_changes_and_the_bound_itself_prices(
) {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    block(&mut solver, json!({ "blockNumber": 1, "upserts": direct_or_two_legs() }));
    let request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "1000000000000000000", "slippageBps": 0, "gasPriceWei": "1" });
    let before = solver.quote_json(&request.to_string()).unwrap();
    for too_much in [crate::market::Market::MAX_LEG_OVERHEAD_GAS + 1, u64::MAX] {
        let refused = solver.apply_block_json(&json!({ "blockNumber": 2, "l1GasPerLeg": too_much, "removals": ["0xb000000000000000000000000000000000000001"] }).to_string());
        assert!(
            matches!(&refused, Err(SolverError::InvalidInput { field, reason: m }) if field == "l1GasPerLeg" && m.contains("2^48")),
            "{refused:?}"
        );
        assert_eq!(
            solver.quote_json(&request.to_string()).unwrap(),
            before,
            "a refused block changed the market"
        );
    }
    // At the bound, every leg's gas carries it and no gas figure wraps: gasUnits is the legs' base
    // gas plus legs × 2^48, exactly.
    let most = crate::market::Market::MAX_LEG_OVERHEAD_GAS;
    block(&mut solver, json!({ "blockNumber": 3, "l1GasPerLeg": most }));
    let plan: Value =
        serde_json::from_str(&solver.quote_json(&request.to_string()).unwrap()).unwrap();
    let legs: u64 = plan["routes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["legs"].as_array().unwrap().len() as u64)
        .sum();
    let gas = plan["gasUnits"].as_u64().unwrap();
    assert!(gas > legs * most && gas - legs * most < 1_000_000, "gasUnits {gas} for {legs} legs");
}

#[test]
fn a_panic_in_the_middle_of_a_block_leaves_the_last_complete_block_serving_quotes() {
    use crate::ffi::guarded;
    use crate::market::injected_panic;
    use std::sync::RwLock;
    // Held as the native addon holds it: a panic is caught by `guarded`, and the poisoned lock is
    // recovered as it is.
    let solver =
        RwLock::new(Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap());
    let read = || solver.read().unwrap_or_else(|p| p.into_inner());
    let request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "1000000000000000000", "slippageBps": 0 }).to_string();
    solver
        .write()
        .unwrap()
        .apply_block_json(&json!({ "blockNumber": 1, "upserts": direct_or_two_legs() }).to_string())
        .unwrap();
    let before = read().quote_json(&request).unwrap();
    // Block 2 drains the direct pool, doubles the two-leg route's pools and removes nothing; the
    // panic strikes after its first pool was inserted.
    let mut pools = direct_or_two_legs();
    pools[0]["state"]["reserves"] = json!(["1000000000000000000000", "1000"]);
    pools[1]["state"]["reserves"] = json!(["2000000000000000000000", "6000000000000000000000000"]);
    injected_panic::after_inserts(1);
    let update = json!({ "blockNumber": 2, "upserts": pools, "l1GasPerLeg": 5000 }).to_string();
    let panicked =
        guarded(|| solver.write().unwrap_or_else(|p| p.into_inner()).apply_block_json(&update));
    assert!(
        matches!(&panicked, Err(SolverError::Internal { reason: m }) if m.contains("injected panic")),
        "{panicked:?}"
    );
    assert!(solver.is_poisoned(), "the panic happened under the write lock");
    // The quote is block 1's, byte for byte: nothing of block 2 (its first pool, its L1 fee) shows.
    assert_eq!(read().quote_json(&request).unwrap(), before);
    // The block applied again in full is served.
    solver.write().unwrap_or_else(|p| p.into_inner()).apply_block_json(&update).unwrap();
    let after: Value = serde_json::from_str(&read().quote_json(&request).unwrap()).unwrap();
    assert_eq!(
        (after["blockNumber"].as_u64(), after["l1GasPerLeg"].as_u64()),
        (Some(2), Some(5000))
    );
}

/// A Curve pool of USDC, USDbC and DAI beside two V2 pools through WETH: a quote routes through
/// Curve, pays what the exact model pays, and stays under its certified bound.
#[test]
fn curve_pools_are_quoted_exactly_and_under_the_bound() {
    const DAI: &str = "0x50c5725949a6f0c72e6c4a641f24049a917db0cb";
    const USDBC: &str = "0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca";
    const CURVE: &str = "0xc000000000000000000000000000000000000001";
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    let rate = |decimals: u32| {
        (ruint::aliases::U256::from(10).pow(ruint::aliases::U256::from(36 - decimals))).to_string()
    };
    block(
        &mut solver,
        json!({ "blockNumber": 1, "upserts": [
            { "id": CURVE, "dex": "CURVE", "tokens": [USDC, USDBC, DAI],
              "state": { "model": "stableswap", "template": "ng",
                         "balances": ["4000000000000", "3000000000000", "5000000000000000000000000"],
                         "rates": [rate(6), rate(6), rate(18)], "fee": "1000000", "offpegFeeMultiplier": "20000000000",
                         "initialA": "20000", "futureA": "20000", "initialATime": "0", "futureATime": "0", "timestamp": "1" } },
            { "id": "0xc000000000000000000000000000000000000002", "dex": "UNIV2", "tokens": [WETH, USDC],
              "state": { "model": "constant_product", "reserves": ["1000000000000000000000", "3000000000000"] } },
            { "id": "0xc000000000000000000000000000000000000003", "dex": "UNIV2", "tokens": [WETH, DAI],
              "state": { "model": "constant_product", "reserves": ["1000000000000000000000", "3000000000000000000000000"] } },
        ] }),
    );
    for (amount, split) in [("1000000000", false), ("1000000000000", true)] {
        let request = json!({ "tokenIn": USDC, "tokenOut": DAI, "amountIn": amount, "slippageBps": 0,
                              "splitEnabled": split, "maxHops": 2, "gasPriceWei": "1000000" });
        let plan: Value =
            serde_json::from_str(&solver.quote_json(&request.to_string()).unwrap()).unwrap();
        let out: u128 = plan["expectedAmountOut"].as_str().unwrap().parse().unwrap();
        let legs: Vec<&Value> = plan["routes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["legs"].as_array().unwrap())
            .collect();
        assert!(legs.iter().any(|l| l["dex"] == "CURVE"), "the plan routes through Curve: {plan}");
        if let Some(bound) = plan["metadata"]["upperBound"].as_str() {
            assert!(out <= bound.parse::<u128>().unwrap(), "{out} above the bound {bound}");
        }
        if !split {
            // One route straight through Curve: what the pool's exact model pays for the amount.
            let simulated: Value = serde_json::from_str(
                &solver
                    .simulate_json(&json!({ "poolId": CURVE, "tokenIn": USDC, "tokenOut": DAI, "amountIn": amount }).to_string())
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(plan["expectedAmountOut"], simulated["amountOut"], "{plan}");
        }
    }
}

/// Two TAIL/USDC pools apart in depth, so a split quote has a bound to remember.
fn split_pools(second_usdc: &str) -> Value {
    json!([
        { "id": "0xa000000000000000000000000000000000000002", "dex": "UNIV2", "tokens": [TAIL, USDC],
          "state": { "model": "constant_product", "reserves": ["1000000000000000000000000", "1000000000000"] } },
        { "id": "0xa000000000000000000000000000000000000003", "dex": "UNIV2", "tokens": [TAIL, USDC],
          "state": { "model": "constant_product", "reserves": ["500000000000000000000000", second_usdc] } },
    ])
}

/// A solver that has seen only block 7 with [`split_pools`]`(second_usdc)`.
fn split_solver(second_usdc: &str) -> Solver {
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    block(&mut solver, json!({ "blockNumber": 7, "upserts": split_pools(second_usdc) }));
    solver
}

fn split_quote(solver: &Solver) -> Value {
    split_quote_of(solver, "100000000000000000000000")
}

fn split_quote_of(solver: &Solver, amount_in: &str) -> Value {
    let request = json!({ "tokenIn": TAIL, "tokenOut": USDC, "amountIn": amount_in,
                          "slippageBps": 50, "splitEnabled": true });
    serde_json::from_str(&solver.quote_json(&request.to_string()).unwrap()).unwrap()
}

#[test]
fn a_block_that_changes_a_pool_changes_the_next_split_quotes_bound() {
    let mut solver = split_solver("500000000000");
    let before = split_quote(&solver);
    assert_eq!(before["routes"].as_array().unwrap().len(), 2, "a split plan: {before}");
    assert!(before["metadata"]["upperBound"].is_string());
    // The repeated trade takes the remembered bound: the same plan as the first quote.
    assert_eq!(split_quote(&solver), before);
    // The next block deepens the second pool: the bound and the plan follow it, as a solver that
    // only ever saw the new pool computes them.
    block(&mut solver, json!({ "blockNumber": 7, "upserts": split_pools("600000000000") }));
    let after = split_quote(&solver);
    assert_ne!(after["metadata"]["upperBound"], before["metadata"]["upperBound"]);
    assert_eq!(after, split_quote(&split_solver("600000000000")));
}

/// The pair's graph is remembered per snapshot for any amount (`route/graph_memos.rs`): a second
/// amount quoted on the same block is the quote a solver that never saw the first gives, and after
/// a block that changes a pool of the graph the next quote of a new amount follows the new pool.
#[test]
fn a_block_that_changes_a_pool_of_the_pairs_graph_changes_the_next_amounts_quote() {
    let (first, second, third) =
        ("100000000000000000000000", "120000000000000000000000", "140000000000000000000000");
    let mut solver = split_solver("500000000000");
    split_quote_of(&solver, first);
    let reused = split_quote_of(&solver, second);
    assert_eq!(reused["routes"].as_array().unwrap().len(), 2, "a split plan: {reused}");
    assert_eq!(reused, split_quote_of(&split_solver("500000000000"), second));
    block(&mut solver, json!({ "blockNumber": 7, "upserts": split_pools("600000000000") }));
    let after = split_quote_of(&solver, third);
    let unchanged = split_quote_of(&split_solver("500000000000"), third);
    assert_ne!(after["metadata"]["upperBound"], unchanged["metadata"]["upperBound"]);
    assert_eq!(after, split_quote_of(&split_solver("600000000000"), third));
}

#[test]
fn simulate_prices_a_swap_after_the_prior_swaps_of_its_transaction_on_the_pool() {
    // A pool two legs of a plan trade: the second is priced where the first leaves it, as the router
    // executes them (the re-quote of a plan whose sampled leg moved a shared pool leg's input).
    let mut solver = Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap();
    block(&mut solver, json!({ "blockNumber": 1, "upserts": direct_or_two_legs() }));
    let pool = "0xb000000000000000000000000000000000000001";
    let simulate = |request: Value| -> Result<u128, SolverError> {
        let answer: Value =
            serde_json::from_str(&solver.simulate_json(&request.to_string())?).unwrap();
        Ok(answer["amountOut"].as_str().unwrap().parse().unwrap())
    };
    // Uniswap V2's getAmountOut at 30 bps, by hand: 1 WETH in on 1,000 WETH / 2,990,000 USDC, twice.
    let amount_out = |amount_in: u128, reserve_in: u128, reserve_out: u128| {
        amount_in * 997 * reserve_out / (reserve_in * 1000 + amount_in * 997)
    };
    let (weth, usdc, one) =
        (1_000_000_000_000_000_000_000u128, 2_990_000_000_000u128, 1_000_000_000_000_000_000u128);
    let first = amount_out(one, weth, usdc);
    let second = amount_out(one, weth + one, usdc - first);
    let alone = json!({ "poolId": pool, "tokenIn": WETH, "amountIn": one.to_string() });
    assert_eq!(simulate(alone.clone()).unwrap(), first);
    let mut after = alone.clone();
    after["priorSwaps"] = json!([{ "tokenIn": WETH, "amountIn": one.to_string() }]);
    assert_eq!(simulate(after).unwrap(), second, "priced after the prior swap");
    // A prior swap the other way makes this one pay more; none: as alone.
    let mut reversed = alone.clone();
    reversed["priorSwaps"] =
        json!([{ "tokenIn": USDC, "tokenOut": WETH, "amountIn": "3000000000" }]);
    assert!(simulate(reversed).unwrap() > first);
    let mut empty = alone.clone();
    empty["priorSwaps"] = json!([]);
    assert_eq!(simulate(empty).unwrap(), first);
    // A prior swap through a token the pool does not hold is bad input, named.
    let mut foreign = alone;
    foreign["priorSwaps"] =
        json!([{ "tokenIn": "0x50c5725949a6f0c72e6c4a641f24049a917db0cb", "amountIn": "1" }]);
    assert!(matches!(simulate(foreign), Err(e) if e.to_string().contains("tokenIn")));
}
