//! The per-side graph the joint solve starts from: where a graph prices a venue by its joint budget
//! (WOOFi's vault, `pools/woofi/joint.rs`), the same scope built again with the vault's curve per
//! side (`pools/woofi/bound.rs`). Newton on the joint budget started from the first-unit prices
//! and the warm start stopped far from its optimum (cbETH→cbBTC 2-hop 1× on today's fixture, g 38.8
//! times the plan); started where the per-side curves' solve ends it converged there (1.000 times):
//! docs/dex-kinds.md, WOOFI, *Route quality*. The per-side prices bound the joint graph too (any
//! prices do), and its copies are the same, so its prices are a start for the joint solve as they
//! are ([`super::solve::minimise_with`]).

use super::graph::{Graph, Scope};
use crate::market::Market;
use crate::route::clock::Deadline;

/// `scope`'s graph with every venue `graph` prices by a joint budget priced per side instead; None
/// when `graph` (built for `scope` on `market`) has no such venue, when the per-side graph's copies
/// differ from `graph`'s (the start would not map), or past `deadline` (checked as
/// [`Graph::build_before`] checks it).
pub fn per_side(
    market: &Market,
    scope: &Scope,
    graph: &Graph,
    deadline: &Deadline,
) -> Option<Graph> {
    // A joint budget is the linear one (`pooled_linear.rs`); a Curve pool's curved budget is the
    // same per side, so a graph of those would be built and solved twice for the same prices.
    if !graph.venues.iter().any(|v| v.pooled.as_ref().is_some_and(|p| p.budget.is_linear())) {
        return None;
    }
    let sides = {
        let _apart = crate::pools::woofi::sides_apart();
        Graph::build_before(market, scope, deadline).ok()?
    };
    (sides.copies == graph.copies).then_some(sides)
}
