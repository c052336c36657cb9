//! The solver as the native addon shares it between libuv threads.

use crate::{Solver, SolverError};
use std::sync::RwLock;

/// Updates take the lock for their whole call; quotes, simulations and water-filling take it only
/// to copy a view of the current snapshot (a few reference counts, [`Solver`]) and then run with
/// no lock held. So an update never waits for a quote (a 10 s budget included), a quote never
/// waits for more than an update's own time, and a quote sees one block whole. A poisoned lock
/// (a panic in an update, caught by `guarded`) is recovered as it is: updates swap a finished
/// snapshot in, so the solver behind it is the last complete update's.
pub(crate) struct SharedSolver(RwLock<Solver>);

impl SharedSolver {
    pub(crate) fn new(solver: Solver) -> SharedSolver {
        SharedSolver(RwLock::new(solver))
    }

    /// Runs an update with the lock held.
    pub(crate) fn update<T>(
        &self,
        call: impl FnOnce(&mut Solver) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        call(&mut self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// A view of the current snapshot, the lock released before it is returned.
    pub(crate) fn view(&self) -> Solver {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
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
        let new: Value =
            serde_json::from_str(&shared.view().quote_json(&request).unwrap()).unwrap();
        assert_eq!((old["blockNumber"].as_u64(), new["blockNumber"].as_u64()), (Some(1), Some(2)));
        // Each answer is its own block's whole: block 1's pool paid more USDC than block 2's.
        let out =
            |plan: &Value| plan["expectedAmountOut"].as_str().unwrap().parse::<u128>().unwrap();
        assert!(out(&old) > out(&new), "{} vs {}", out(&old), out(&new));
    }
}
