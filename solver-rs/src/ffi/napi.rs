//! The native addon. Every call that touches the market runs as libuv async work, so a long solve
//! never blocks Node's event loop; quotes run on a snapshot of the market and hold no lock while
//! they solve (`shared_solver.rs`), and a quote's budget runs from the JS call, so the time it
//! waits for a thread of the pool (4 by default, busy with other calls) is part of it.

use super::guarded;
use super::shared_solver::SharedSolver;
use crate::{Solver, SolverError};
use napi::bindgen_prelude::{AsyncTask, Error, JsObjectValue, Result, Status};
use napi::{Env, JsValue, Task};
use napi_derive::napi;
use std::sync::Arc;
use std::time::Instant;

/// The JS error a solver error is thrown as: `code` is the variant ([`SolverError::code`]),
/// `message` the reason, and the variant's fields are properties (`field`, `pool`, `dex`), so the
/// bindings read them without parsing the message.
fn to_js_error(env: &Env, err: &SolverError) -> Error {
    let build = || -> Result<Error> {
        let mut object = env.create_error(Error::new(Status::GenericFailure, err.reason()))?;
        object.set_named_property("code", err.code())?;
        match err {
            SolverError::InvalidInput { field, .. } => {
                object.set_named_property("field", field.as_str())?
            }
            SolverError::Unsupported { pool, dex, .. } => {
                object.set_named_property("pool", pool.as_str())?;
                object.set_named_property("dex", dex.to_string())?;
            }
            SolverError::NoRoute { .. } | SolverError::Internal { .. } => {}
        }
        Ok(Error::from(object.to_unknown()))
    };
    build().unwrap_or_else(|failed| failed)
}

/// The solver as a JS class: `new NativeSolver(configJson)`.
#[napi]
pub struct NativeSolver {
    inner: Arc<SharedSolver>,
}

enum Call {
    ApplyBlock(String),
    Upsert(String),
    Remove(String),
    /// The request, and when JS made the call: the time it waits for a thread of the pool is
    /// taken from its budget.
    Quote(String, Instant),
    Simulate(String),
    Waterfill(String),
}

/// One call, computed on the libuv thread pool.
pub struct SolverTask {
    solver: Arc<SharedSolver>,
    call: Call,
}

impl Task for SolverTask {
    /// The solver's own answer: its error becomes a JS error on the main thread ([`to_js_error`]).
    type Output = std::result::Result<String, SolverError>;
    type JsValue = String;

    fn compute(&mut self) -> Result<Self::Output> {
        let solver = &self.solver;
        Ok(guarded(|| match &self.call {
            Call::ApplyBlock(json) => solver.update(|s| s.apply_block_json(json)),
            Call::Upsert(json) => solver.update(|s| s.upsert_pools_json(json)),
            Call::Remove(json) => solver.update(|s| s.remove_pools_json(json)),
            Call::Quote(json, made) => {
                let waited_ms = made.elapsed().as_secs_f64() * 1000.0;
                solver.view().quote_json_after_wait(json, waited_ms)
            }
            Call::Simulate(json) => solver.view().simulate_json(json),
            Call::Waterfill(json) => super::waterfill_json(&solver.view(), json),
        }))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<String> {
        output.map_err(|err| to_js_error(&env, &err))
    }
}

#[napi]
impl NativeSolver {
    #[napi(constructor)]
    pub fn new(env: Env, config: String) -> Result<Self> {
        let solver =
            guarded(|| Solver::from_config_json(&config)).map_err(|err| to_js_error(&env, &err))?;
        Ok(NativeSolver { inner: Arc::new(SharedSolver::new(solver)) })
    }

    fn task(&self, call: Call) -> AsyncTask<SolverTask> {
        AsyncTask::new(SolverTask { solver: Arc::clone(&self.inner), call })
    }

    /// Applies one block's changes (`{"blockNumber", "upserts", "removals"}`) at once; resolves to
    /// `{"pools": n, "rejected": [...]}`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn apply_block(&self, update: String) -> AsyncTask<SolverTask> {
        self.task(Call::ApplyBlock(update))
    }

    /// Upserts a JSON array of pools; resolves to `{"pools": n}`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn upsert_pools(&self, pools: String) -> AsyncTask<SolverTask> {
        self.task(Call::Upsert(pools))
    }

    /// Removes a JSON array of pool ids; resolves to `{"pools": n}`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn remove_pools(&self, ids: String) -> AsyncTask<SolverTask> {
        self.task(Call::Remove(ids))
    }

    /// Quotes a JSON request; resolves to the plan's JSON. Its `timeBudgetMs` runs from this call,
    /// not from when a thread of the pool picks it up.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn quote(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Quote(request, Instant::now()))
    }

    /// One swap on one pool; resolves to `{"amountOut", "crossings", "words", "gasUnits"}`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn simulate(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Simulate(request))
    }

    /// Routes a quote request as Fynd's water-filling does (the quality reference); resolves to
    /// its tree's JSON, in builds with the `reference` feature (else rejects: not built).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn waterfill(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Waterfill(request))
    }
}

/// The StableSwap model on one pool state at a time, for the anvil differential tests: a JSON
/// array of `{ pool, i, j, dx }` in, a JSON array of `{ out, balances, … }` or `{ error }` out
/// (`stableswap_lines.rs`). In `reference` builds only, as water-filling.
#[cfg(feature = "reference")]
#[napi]
pub fn stableswap_exchange(env: Env, cases: String) -> Result<String> {
    guarded(|| super::stableswap_lines::answer_all(&cases)).map_err(|err| to_js_error(&env, &err))
}
