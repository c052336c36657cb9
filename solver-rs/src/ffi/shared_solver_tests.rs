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
    let shared = solver_at_block_1();
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

fn solver_at_block_1() -> SharedSolver {
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
    shared
}

#[test]
fn a_view_is_taken_while_an_update_works_and_an_update_that_fails_replaces_nothing() {
    use std::sync::mpsc::channel;
    use std::time::Duration;
    let shared = solver_at_block_1();
    let (started, update_started) = channel();
    let (release, released) = channel::<()>();
    let (viewed, view_taken) = channel();
    std::thread::scope(|scope| {
        let shared = &shared;
        scope.spawn(move || {
            shared
                .update(|s| {
                    started.send(()).unwrap();
                    // The update's work lasts until the view below was taken.
                    released.recv().unwrap();
                    s.apply_block_json(
                        &json!({ "blockNumber": 2, "upserts": pool("2000000000000") }).to_string(),
                    )
                })
                .unwrap();
        });
        update_started.recv().unwrap();
        scope.spawn(move || viewed.send(shared.view().block_number()).unwrap());
        // Had the update held the lock through its work, no view could be taken before the
        // release: the view would wait for it and this would time out.
        let during = view_taken.recv_timeout(Duration::from_secs(20));
        release.send(()).unwrap();
        assert_eq!(during, Ok(Some(1)), "a view taken during the update is the last block's");
    });
    assert_eq!(shared.view().block_number(), Some(2));
    let refused = shared.update(|s| s.apply_block_json("{\"blockNumber\": 3, \"upserts\": 7}"));
    assert!(refused.is_err());
    assert_eq!(shared.view().block_number(), Some(2), "a refused update replaced nothing");
}

#[test]
fn a_quote_that_waited_has_only_the_rest_of_its_budget() {
    let solver = solver_at_block_1().view();
    // Two amounts: a repeat of the first request would be the plan memo's answer, whatever the wait.
    let stopped = |amount_in: &str, waited_ms: f64| {
        let request = json!({ "tokenIn": WETH, "tokenOut": USDC, "amountIn": amount_in, "slippageBps": 0, "timeBudgetMs": 10000 }).to_string();
        let plan: Value =
            serde_json::from_str(&solver.quote_json_after_wait(&request, waited_ms).unwrap())
                .unwrap();
        (plan["metadata"]["stoppedBy"].clone(), plan["metadata"]["stoppedIn"].clone())
    };
    assert_eq!(stopped("1000000000000000000", 0.0), (json!("converged"), Value::Null));
    // Queued past its 10 s budget: stopped at the first check (the search swaps the direct
    // pool whatever the budget; the probe search checks first), still answered.
    assert_eq!(stopped("1000000000000000001", 10_001.0), (json!("budget"), json!("probeSearch")));
}
