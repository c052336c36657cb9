//! Routing: candidate paths, the split optimizer and the exact replay that builds the plan.
//! Nothing here names a concrete DEX kind; pools are reached only through the `PoolModel` trait.
//!
//! No integer here may wrap or be truncated silently: amounts are checked or saturate with a
//! defined outcome, indices and counters saturate where they provably stay small, and
//! `cargo clippy` (scripts/test.sh) refuses an operator that could, in every module here.
// Tests build their cases with plain arithmetic on small known values: the lints hold the code
// the solver runs (`cargo clippy --all-targets` checks it in the library target).
#![cfg_attr(not(test), deny(clippy::arithmetic_side_effects, clippy::cast_possible_truncation))]

pub mod bound_memos;
pub mod clock;
pub mod convex;
mod dead_routes;
pub mod gas;
pub mod gas_cap;
pub mod graph_memos;
mod linear;
pub mod net;
pub mod path;
pub mod plan;
pub mod plan_memos;
pub mod quote;
pub mod request;
pub mod resplit;
pub mod search;
pub mod slippage;
pub mod split;
pub mod swap_memos;
#[cfg(feature = "reference")]
pub mod waterfill;

#[cfg(test)]
mod amount_limits_tests;
#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod dead_routes_tests;
#[cfg(test)]
mod quote_loose_venue_tests;
#[cfg(test)]
mod quote_tests;
#[cfg(test)]
mod resplit_tests;
#[cfg(test)]
mod split_reference_tests;
#[cfg(test)]
pub(crate) mod test_market;
#[cfg(test)]
mod test_pools;
