//! The solver instance across market updates: what it caches between quotes must follow the market.

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
    assert!((1.95..2.05).contains(&ratio), "gas cost went from {} to {}", cost(&before), cost(&after));
    // And the answer is the one a solver that never saw the old market gives.
    assert_eq!(after, quote(&solver_with(6000)));
}
