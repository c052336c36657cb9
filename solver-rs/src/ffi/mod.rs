//! Glue to the two hosts: conversion and error mapping only, no logic. Both expose the same five
//! JSON calls of [`crate::Solver`]; an error is thrown as a JS `Error` whose `code` is the
//! [`crate::SolverError`] variant and whose properties are its fields (`docs/solver-wire-format.md`).

#[cfg(feature = "napi")]
mod napi;
#[cfg(any(feature = "napi", test))]
mod shared_solver;
#[cfg(all(feature = "napi", feature = "reference"))]
mod stableswap_lines;
#[cfg(feature = "wasm")]
mod wasm;
#[cfg(all(target_arch = "wasm32", feature = "wasm"))]
pub mod wasm_clock;

#[cfg(all(target_arch = "wasm32", not(feature = "wasm")))]
compile_error!("the wasm32 build needs the `wasm` feature (it provides the clock)");

/// `solver.waterfill(request)` of both bindings: the water-filling reference where this build has
/// it (the `reference` feature: the tests' and benches' builds), else an internal error saying it
/// is not built (production builds leave it out: it never answers a quote).
#[cfg(any(feature = "napi", feature = "wasm"))]
pub(crate) fn waterfill_json(
    solver: &crate::Solver,
    request: &str,
) -> Result<String, crate::SolverError> {
    #[cfg(feature = "reference")]
    return solver.waterfill_json(request);
    #[cfg(not(feature = "reference"))]
    {
        let _ = (solver, request);
        Err(crate::SolverError::internal(
            "water-filling is a reference for the tests and benches, not in this build: build \
             with the `reference` feature (bash scripts/build.sh --reference)",
        ))
    }
}

/// Runs `call`, turning a panic into an internal error so that none crosses the FFI boundary.
#[cfg(any(feature = "napi", test))]
pub(crate) fn guarded<T>(
    call: impl FnOnce() -> Result<T, crate::SolverError>,
) -> Result<T, crate::SolverError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(crate::SolverError::internal(format!("solver panicked: {what}")))
    })
}

#[cfg(test)]
#[path = "ffi_tests.rs"]
mod tests;
