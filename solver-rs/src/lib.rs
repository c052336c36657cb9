//! Exact DEX pool models and a split-route optimizer for the Base swap aggregator.
//!
//! The solver owns the market: TypeScript upserts the pools that changed in a block and asks for
//! quotes; a quote carries only the request across the boundary (`ffi`).

pub mod address;
pub mod dex;
pub mod error;
pub mod ffi;
pub mod market;
pub mod math;
pub mod pools;
pub mod route;
pub mod solver;

pub use error::SolverError;
pub use solver::Solver;

#[cfg(test)]
mod ffi_fuzz_tests;
#[cfg(test)]
mod solver_tests;
