//! The convex routing problem of Angeris, Chitra, Evans and Boyd ("Optimal routing for constant
//! function market makers", 2022) and its dual (Diamandis, Resnick, Chitra and Angeris, "An
//! efficient algorithm for optimal routing through constant function market makers", 2023), on
//! the venues a quote may use: the certified upper bound on what any routing can pay, and the
//! flows the split optimizer starts from. See docs/solver-optimizer.md, *The bound*.

pub mod certificate;
#[cfg(feature = "reference")]
pub mod chain;
mod conservation;
mod corners;
pub mod curve;
pub mod decompose;
pub mod dual;
pub mod enough;
pub mod graph;
pub mod graph_sides;
mod newton_system;
pub mod pooled;
pub mod pooled_vault_hop;
pub mod pooled_vault_layers;
pub mod pooled_vault_notional;
mod sign_change;
mod simplex;
pub mod solve;
mod solve_tally;
mod ties;

#[cfg(test)]
mod closed_form_tests;
#[cfg(test)]
mod exhaustive_tests;

use crate::market::Market;
use crate::math::U256;
use crate::route::clock::Deadline;
use crate::route::graph_memos::GraphMemos;
use decompose::{carried_at_corners, decompose, Routed};
use enough::Floor;
use graph::Scope;

/// The share of a known plan's output (1 bps) below which a quote's bound is not tightened by the
/// vault priced hop by hop (`pooled_vault_layers.rs`): that graph's build and solve cost a quote
/// tens of ms of CPU on the embedded market, and tighten only bounds that the joint budget lets the
/// vault lend between hops, gaps of hundreds of bps where they occur (docs/dex-kinds.md, WOOFI).
pub const VAULT_HOPS_WORTH: f64 = 1e-4;

/// What the convex phase gives a quote: the certified bound and the optimum's flows as paths.
#[derive(Clone, Debug)]
pub struct Flows {
    /// The certified upper bound (raw tokenOut, gas ignored); None if it is not finite.
    pub bound: Option<U256>,
    /// Paths with the shares of amountIn the dual's flows give them, widest first.
    pub routed: Vec<Routed>,
}

/// Builds the graph of `scope` (or takes the one `graphs` remembers for it), minimises the dual
/// until `deadline` or until it has reached `floor` (what a plan is known to pay: `enough.rs`),
/// certifies the bound at the prices reached and decomposes their flows into at
/// most `limit` paths. None when the graph is too large or empty, or the deadline passed before it
/// was built. Once the graph is built, a deadline that passes leaves the prices reached so far: one
/// evaluation of the dual, its certificate and the decomposition follow (each a pass over the
/// graph's venues).
pub fn route_flows(
    market: &Market,
    scope: &Scope,
    amount_in: U256,
    limit: usize,
    floor: Floor,
    deadline: &Deadline,
    graphs: &GraphMemos,
) -> Option<Flows> {
    graphs.with_graph(market, scope, deadline, |graph| {
        let amount = f64::from(amount_in);
        let sides = graph_sides::per_side(market, scope, graph, deadline);
        let (dual, apart) =
            solve::minimise_two_phase_above(graph, sides.as_ref(), amount, floor, deadline);
        let sides = sides.as_ref().zip(apart.as_deref());
        let bound = certificate::least_certified(graph, sides, &dual.prices, amount);
        // The vault priced hop by hop can only lower the bound: not built where the bound already
        // leaves a known plan less than [`VAULT_HOPS_WORTH`] to gain (`enough.rs`).
        let bound = match bound {
            Some(b) if floor.within(f64::from(b), VAULT_HOPS_WORTH) => bound,
            _ => certificate::least(
                bound,
                pooled_vault_layers::bound(market, scope, graph, amount, deadline),
            ),
        };
        let trades = carried_at_corners(graph, &dual.prices, &dual.evaluation);
        let routed = decompose(graph, &trades, amount, limit);
        Flows { bound, routed }
    })
}

/// The certified upper bound on what routing `amount_in` over `scope` can pay (raw units of
/// tokenOut, gas ignored): the dual minimised until `deadline`, then certified. None when the
/// graph is too large to solve or has no arc. The tests' (a quote takes it from [`route_flows`]).
#[cfg(test)]
pub fn bound(market: &Market, scope: &Scope, amount_in: U256, deadline: &Deadline) -> Option<U256> {
    let graph =
        graph::Graph::build_before(market, scope, deadline).ok().filter(|g| !g.is_empty())?;
    let amount = f64::from(amount_in);
    let sides = graph_sides::per_side(market, scope, &graph, deadline);
    let (dual, apart) = solve::minimise_two_phase(&graph, sides.as_ref(), amount, deadline);
    let sides = sides.as_ref().zip(apart.as_deref());
    let bound = certificate::least_certified(&graph, sides, &dual.prices, amount);
    certificate::least(bound, pooled_vault_layers::bound(market, scope, &graph, amount, deadline))
}
