//! The convex routing problem of Angeris, Chitra, Evans and Boyd ("Optimal routing for constant
//! function market makers", 2022) and its dual (Diamandis, Resnick, Chitra and Angeris, "An
//! efficient algorithm for optimal routing through constant function market makers", 2023), on
//! the venues a quote may use: the certified upper bound on what any routing can pay, and the
//! flows the split optimizer starts from. See docs/solver-optimizer.md, *The bound*.

pub mod curve;
pub mod certificate;
pub mod dual;
pub mod graph;
pub mod solve;

#[cfg(test)]
mod closed_form_tests;

use crate::market::Market;
use crate::math::U256;
use crate::route::clock::Deadline;
use graph::{Graph, Scope};

/// The certified upper bound on what routing `amount_in` over `scope` can pay (raw units of
/// tokenOut, gas ignored): the dual minimised until `deadline`, then certified. None when the
/// graph is too large to solve or has no arc.
pub fn bound(market: &Market, scope: &Scope, amount_in: U256, deadline: &Deadline) -> Option<U256> {
    let graph = Graph::build(market, scope).ok().filter(|g| !g.is_empty())?;
    let amount = f64::from(amount_in);
    let dual = solve::minimise(&graph, amount, deadline);
    certificate::certified_bound(&graph, &dual.prices, amount)
}
