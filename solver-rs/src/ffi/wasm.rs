//! The WASM module (wasm-bindgen). It runs inside a worker thread of the bindings, so its
//! synchronous calls never block the main event loop. Built with panic=abort: inputs are
//! validated so that no input reaches a panic (the parity and robustness tests check that).

use crate::Solver;
use wasm_bindgen::prelude::*;

/// The solver as a JS class: `new WasmSolver(configJson)`.
#[wasm_bindgen]
pub struct WasmSolver {
    inner: Solver,
}

fn to_js(err: crate::SolverError) -> JsError {
    JsError::new(&err.to_string())
}

#[wasm_bindgen]
impl WasmSolver {
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmSolver, JsError> {
        Solver::from_config_json(config).map(|inner| WasmSolver { inner }).map_err(to_js)
    }

    #[wasm_bindgen(js_name = applyBlock)]
    pub fn apply_block(&mut self, update: &str) -> Result<String, JsError> {
        self.inner.apply_block_json(update).map_err(to_js)
    }

    #[wasm_bindgen(js_name = upsertPools)]
    pub fn upsert_pools(&mut self, pools: &str) -> Result<String, JsError> {
        self.inner.upsert_pools_json(pools).map_err(to_js)
    }

    #[wasm_bindgen(js_name = removePools)]
    pub fn remove_pools(&mut self, ids: &str) -> Result<String, JsError> {
        self.inner.remove_pools_json(ids).map_err(to_js)
    }

    pub fn quote(&self, request: &str) -> Result<String, JsError> {
        self.inner.quote_json(request).map_err(to_js)
    }

    pub fn simulate(&self, request: &str) -> Result<String, JsError> {
        self.inner.simulate_json(request).map_err(to_js)
    }

    pub fn waterfill(&self, request: &str) -> Result<String, JsError> {
        self.inner.waterfill_json(request).map_err(to_js)
    }
}
