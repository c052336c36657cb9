//! The native addon. Every call that touches the market runs as libuv async work, so a long solve
//! never blocks Node's event loop; quotes run on a snapshot of the market and hold no lock while
//! they solve (`shared_solver.rs`).

use super::guarded;
use super::shared_solver::SharedSolver;
use crate::{Solver, SolverError};
use napi::bindgen_prelude::{AsyncTask, Error, Result, Status};
use napi::{Env, Task};
use napi_derive::napi;
use std::sync::Arc;

fn to_napi(err: SolverError) -> Error {
    Error::new(Status::GenericFailure, err.to_string())
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
    Quote(String),
    Simulate(String),
    Waterfill(String),
}

/// One call, computed on the libuv thread pool.
pub struct SolverTask {
    solver: Arc<SharedSolver>,
    call: Call,
}

impl Task for SolverTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<String> {
        let solver = &self.solver;
        guarded(|| match &self.call {
            Call::ApplyBlock(json) => solver.update(|s| s.apply_block_json(json)),
            Call::Upsert(json) => solver.update(|s| s.upsert_pools_json(json)),
            Call::Remove(json) => solver.update(|s| s.remove_pools_json(json)),
            Call::Quote(json) => solver.view().quote_json(json),
            Call::Simulate(json) => solver.view().simulate_json(json),
            Call::Waterfill(json) => solver.view().waterfill_json(json),
        })
        .map_err(to_napi)
    }

    fn resolve(&mut self, _env: Env, output: String) -> Result<String> {
        Ok(output)
    }
}

#[napi]
impl NativeSolver {
    #[napi(constructor)]
    pub fn new(config: String) -> Result<Self> {
        let solver = guarded(|| Solver::from_config_json(&config)).map_err(to_napi)?;
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

    /// Quotes a JSON request; resolves to the plan's JSON.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn quote(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Quote(request))
    }

    /// One swap on one pool; resolves to `{"amountOut", "crossings", "words", "gasUnits"}`.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn simulate(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Simulate(request))
    }

    /// Routes a quote request as Fynd's water-filling does (the quality reference); resolves to
    /// its tree's JSON.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn waterfill(&self, request: String) -> AsyncTask<SolverTask> {
        self.task(Call::Waterfill(request))
    }
}
