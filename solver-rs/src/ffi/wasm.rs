//! The WASM module (wasm-bindgen). It runs inside a worker thread of the bindings, so its
//! synchronous calls never block the main event loop. Built with panic=abort: inputs are
//! validated so that no input reaches a panic (the parity and robustness tests check that).

use crate::{Solver, SolverError};
use wasm_bindgen::prelude::*;

/// The solver as a JS class: `new WasmSolver(configJson)`.
#[wasm_bindgen]
pub struct WasmSolver {
    inner: Solver,
}

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `Error`, with the properties a solver error adds to it.
    #[wasm_bindgen(js_name = Error)]
    type SolverFault;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> SolverFault;
    #[wasm_bindgen(method, setter = code)]
    fn set_code(this: &SolverFault, code: &str);
    #[wasm_bindgen(method, setter = field)]
    fn set_field(this: &SolverFault, field: &str);
    #[wasm_bindgen(method, setter = pool)]
    fn set_pool(this: &SolverFault, pool: &str);
    #[wasm_bindgen(method, setter = dex)]
    fn set_dex(this: &SolverFault, dex: &str);
}

/// The JS error a solver error is thrown as, the same shape as the native addon's: `code` is the
/// variant ([`crate::SolverError::code`]), `message` the reason, the variant's fields properties.
fn to_js(err: SolverError) -> JsValue {
    let fault = SolverFault::new(&err.reason());
    fault.set_code(err.code());
    match &err {
        SolverError::InvalidInput { field, .. } => fault.set_field(field),
        SolverError::Unsupported { pool, dex, .. } => {
            fault.set_pool(pool);
            fault.set_dex(&dex.to_string());
        }
        SolverError::NoRoute { .. } | SolverError::Internal { .. } => {}
    }
    fault.into()
}

#[wasm_bindgen]
impl WasmSolver {
    #[wasm_bindgen(constructor)]
    pub fn new(config: &str) -> Result<WasmSolver, JsValue> {
        Solver::from_config_json(config).map(|inner| WasmSolver { inner }).map_err(to_js)
    }

    #[wasm_bindgen(js_name = applyBlock)]
    pub fn apply_block(&mut self, update: &str) -> Result<String, JsValue> {
        self.inner.apply_block_json(update).map_err(to_js)
    }

    #[wasm_bindgen(js_name = upsertPools)]
    pub fn upsert_pools(&mut self, pools: &str) -> Result<String, JsValue> {
        self.inner.upsert_pools_json(pools).map_err(to_js)
    }

    #[wasm_bindgen(js_name = removePools)]
    pub fn remove_pools(&mut self, ids: &str) -> Result<String, JsValue> {
        self.inner.remove_pools_json(ids).map_err(to_js)
    }

    pub fn quote(&self, request: &str) -> Result<String, JsValue> {
        self.inner.quote_json(request).map_err(to_js)
    }

    /// [`WasmSolver::quote`] for a call made `waited_ms` ago, queued behind others in the worker:
    /// its budget runs from when it was made.
    #[wasm_bindgen(js_name = quoteAfterWait)]
    pub fn quote_after_wait(&self, request: &str, waited_ms: f64) -> Result<String, JsValue> {
        self.inner.quote_json_after_wait(request, waited_ms).map_err(to_js)
    }

    pub fn simulate(&self, request: &str) -> Result<String, JsValue> {
        self.inner.simulate_json(request).map_err(to_js)
    }

    pub fn waterfill(&self, request: &str) -> Result<String, JsValue> {
        super::waterfill_json(&self.inner, request).map_err(to_js)
    }
}
