//! The StableSwap model on JSON lines, for the anvil differential (test/differential/
//! curveStableSwap.test.ts): each line `{ "pool": <StableSwapWire>, "i", "j", "dx" }` is answered
//! `{ "out": "…", "balances": ["…", …] }` (what `exchange` pays and the pool's balances after it)
//! or `{ "error": "…" }`. A meta pool (its wire carries `base` and `baseSupply`; the differential
//! test/differential/curveMetaPool.test.ts) swaps its underlying coins (`exchange_underlying`) and
//! answers `baseBalances` and `baseSupply` too, and a pre-factory meta pool's cache after the swap
//! (`baseVirtualPrice`, `baseCacheUpdated`).
//!
//!   cargo run --release --example stableswap_exchange < cases.jsonl
use solver::dex::DexId;
use solver::math::U256;
use solver::pools::input::FromWire;
use solver::pools::registry::spec;
use solver::pools::stableswap::{StableSwapPool, StableSwapWire};
use solver::pools::PoolModel;
use std::io::{BufRead, Write};

#[derive(serde::Deserialize)]
struct Case {
    pool: StableSwapWire,
    i: usize,
    j: usize,
    dx: String,
}

fn answer(line: &str) -> serde_json::Value {
    let case: Case = match serde_json::from_str(line) {
        Ok(case) => case,
        Err(e) => return serde_json::json!({ "error": format!("bad case: {e}") }),
    };
    let pool = match StableSwapPool::from_wire(case.pool, &spec(DexId::Curve)) {
        Ok(pool) => pool,
        Err(e) => return serde_json::json!({ "error": e.to_string() }),
    };
    let Ok(dx) = case.dx.parse::<U256>() else {
        return serde_json::json!({ "error": "bad dx" });
    };
    match pool.apply(case.i, case.j, dx) {
        Ok((outcome, next)) => {
            let mut answer = serde_json::json!({
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
        Err(e) => serde_json::json!({ "error": e.to_string() }),
    }
}

fn main() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        if line.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", answer(&line)).expect("stdout");
    }
}
