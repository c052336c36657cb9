//! The StableSwap model alone, case by case, for the anvil differential tests
//! (test/differential/curveStableSwap.test.ts, curveMetaPool.test.ts): each case
//! `{ "pool": <StableSwapWire>, "i", "j", "dx" }` is answered `{ "out", "balances" }` (what
//! `exchange` pays and the pool's balances after it) or `{ "error" }`. A meta pool (its wire
//! carries `base` and `baseSupply`) swaps its underlying coins (`exchange_underlying`) and answers
//! `baseBalances` and `baseSupply` too, and a pre-factory meta pool's cache after the swap
//! (`baseVirtualPrice`, `baseCacheUpdated`). In the addon of the `reference` builds only, beside
//! water-filling: the tests call it on states they build, without a market or a quote.

use crate::dex::DexId;
use crate::math::U256;
use crate::pools::input::FromWire;
use crate::pools::registry::spec;
use crate::pools::stableswap::{StableSwapPool, StableSwapWire};
use crate::pools::PoolModel;
use serde_json::{json, Value};

#[derive(serde::Deserialize)]
struct Case {
    pool: StableSwapWire,
    i: usize,
    j: usize,
    dx: String,
}

/// The answers to a JSON array of cases, as a JSON array in the same order; a case that does not
/// decode is answered with its error, as a refused swap is.
pub(crate) fn answer_all(cases: &str) -> Result<String, crate::SolverError> {
    let cases: Vec<Value> = serde_json::from_str(cases)
        .map_err(|e| crate::SolverError::invalid("cases", format!("not a JSON array: {e}")))?;
    let answers: Vec<Value> = cases.into_iter().map(answer).collect();
    Ok(Value::Array(answers).to_string())
}

fn answer(case: Value) -> Value {
    let case: Case = match serde_json::from_value(case) {
        Ok(case) => case,
        Err(e) => return json!({ "error": format!("bad case: {e}") }),
    };
    let pool = match StableSwapPool::from_wire(case.pool, &spec(DexId::Curve)) {
        Ok(pool) => pool,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    let Ok(dx) = case.dx.parse::<U256>() else {
        return json!({ "error": "bad dx" });
    };
    match pool.apply(case.i, case.j, dx) {
        Ok((outcome, next)) => {
            let mut answer = json!({
                "out": outcome.amount_out.to_string(),
                "balances": next.balances.iter().map(U256::to_string).collect::<Vec<_>>(),
            });
            if let Some(base) = &next.base {
                answer["baseBalances"] =
                    base.pool.balances.iter().map(U256::to_string).collect::<Vec<_>>().into();
                answer["baseSupply"] = base.supply.to_string().into();
                if let Some(cache) = &base.cache {
                    answer["baseVirtualPrice"] = cache.virtual_price.to_string().into();
                    answer["baseCacheUpdated"] = cache.updated.to_string().into();
                }
            }
            answer
        }
        Err(e) => json!({ "error": e.to_string() }),
    }
}
