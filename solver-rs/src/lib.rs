//! Exact DEX pool models and a split-route optimizer for the Base swap aggregator.
//!
//! The solver owns the market: TypeScript upserts the pools that changed in a block and asks for
//! quotes; a quote carries only the request across the boundary (`ffi`).
//!
//! Tests have one form: a module's tests sit beside it in `<module>_tests.rs` (`<folder>_tests.rs`
//! for a `mod.rs`), declared at the module's end as `#[cfg(test)] #[path = "…_tests.rs"] mod tests;`
//! so they see its private items; a suite across a folder's modules is a `<topic>_tests.rs` child
//! of the folder's `mod.rs`.

pub mod address;
#[cfg(feature = "mimalloc")]
mod allocator;
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
