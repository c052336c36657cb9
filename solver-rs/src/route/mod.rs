//! Routing: candidate paths, the split optimizer and the exact replay that builds the plan.
//! Nothing here names a concrete DEX kind; pools are reached only through the `PoolModel` trait.
//!
//! No integer here may wrap or be truncated silently: amounts are checked or saturate with a
//! defined outcome, and `cargo clippy` (scripts/test.sh) refuses an operator that could. The
//! modules marked `allow` below are not yet converted (issue 20): their integers are indices and
//! counters of f64 linear algebra and the reference water-filling, not amounts that are paid.
#![deny(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]

pub mod clock;
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
pub mod convex;
pub mod gas;
pub mod gas_cap;
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
mod linear;
pub mod net;
pub mod path;
pub mod plan;
pub mod quote;
pub mod request;
pub mod resplit;
pub mod search;
pub mod slippage;
pub mod split;
pub mod swap_memos;
#[cfg(feature = "reference")]
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
pub mod waterfill;

#[cfg(test)]
mod amount_limits_tests;
#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod quote_tests;
#[cfg(test)]
mod resplit_tests;
#[cfg(test)]
mod split_reference_tests;
#[cfg(test)]
mod test_market;
#[cfg(test)]
mod test_pools;
