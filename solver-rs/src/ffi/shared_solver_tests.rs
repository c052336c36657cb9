use super::SharedSolver;
use crate::Solver;
use serde_json::{json, Value};

const WETH: &str = "0x4200000000000000000000000000000000000006";
const USDC: &str = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";

fn pool(usdc_reserve: &str) -> Value {
    json!([{ "id": "0xb000000000000000000000000000000000000001", "dex": "UNIV2", "tokens": [WETH, USDC],
             "state": { "model": "constant_product", "reserves": ["1000000000000000000000", usdc_reserve] } }])
}

#[test]
fn an_update_does_not_wait_for_a_quote_in_flight_and_the_quote_keeps_its_block() {
    let shared = SharedSolver::new(
        Solver::from_config_json(&json!({ "nativeToken": WETH }).to_string()).unwrap(),
    );
    shared
        .update(|s| {
            s.apply_block_json(
                &json!({ "blockNumber": 1, "upserts": pool("3000000000000") }).to_string(),
            )
        })
        .unwrap();
    let request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": "1000000000000000000", "slippageBps": 0, "timeBudgetMs": 10000 }).to_string();
    // A quote in flight holds its view (as a long solve would) while block 2 is applied on this
    // same thread: were the lock held through the solve, the update would deadlock here.
    let in_flight = shared.view();
    shared
        .update(|s| {
            s.apply_block_json(
                &json!({ "blockNumber": 2, "upserts": pool("2000000000000") }).to_string(),
            )
        })
        .unwrap();
    let old: Value = serde_json::from_str(&in_flight.quote_json(&request).unwrap()).unwrap();
    let new: Value = serde_json::from_str(&shared.view().quote_json(&request).unwrap()).unwrap();
    assert_eq!((old["blockNumber"].as_u64(), new["blockNumber"].as_u64()), (Some(1), Some(2)));
    // Each answer is its own block's whole: block 1's pool paid more USDC than block 2's.
    let out = |plan: &Value| plan["expectedAmountOut"].as_str().unwrap().parse::<u128>().unwrap();
    assert!(out(&old) > out(&new), "{} vs {}", out(&old), out(&new));
}
