//! The certified upper bound: g at any prices that never rise with the layer, rounded up past the
//! float error of its evaluation.

use super::dual::{evaluate, monotone};
use super::graph::Graph;
use super::pooled_vault_hop::tightening;
use crate::math::U256;

/// Relative room for floating point: g is a sum of terms each evaluated with a relative error
/// below 10⁻¹⁴ of its magnitude (a few dozen roundings of IEEE operations), so adding 10⁻¹² of the
/// summed magnitudes covers it a hundred times over.
const FLOAT_ROOM: f64 = 1e-12;

/// An upper bound, in raw units of tokenOut, on what any plan routing `amount_in` (raw units of
/// tokenIn) over `graph` can pay, certified by `prices` (one per copy; raised to never rise with
/// the layer first). Rounded up to an integer; None if it is not finite.
pub fn certified_bound(graph: &Graph, prices: &[f64], amount_in: f64) -> Option<U256> {
    let mut prices = prices.to_vec();
    monotone(graph, &mut prices);
    if prices.iter().any(|p| !(p.is_finite() && *p >= 0.0)) {
        return None;
    }
    let at = evaluate(graph, &prices, amount_in, false);
    // A venue with a per-hop term is certified by the least of its terms (`pooled_vault_hop.rs`).
    let (less, magnitude) = tightening(graph, &prices);
    let bound = at.value - less + FLOAT_ROOM * (at.magnitude + magnitude);
    if !bound.is_finite() {
        return None;
    }
    U256::try_from(bound.max(0.0).ceil()).ok()
}

/// The least of [`certified_bound`] on `graph` at `prices` and, where `graph` has a joint-budget
/// venue (`sides`: its scope with those venues priced per side, `graph_sides.rs`, and the prices
/// the per-side solve reached, the first phase of `solve::minimise_two_phase`), the per-side
/// graph's own certified bound there. Both hold; where the joint solve stops far above its minimum
/// the per-side one is the tighter (cbETH↔cbBTC 3-hop on the fresh fixture: 9,884 bps against 78,
/// docs/dex-kinds.md, WOOFI).
pub fn least_certified(
    graph: &Graph,
    sides: Option<(&Graph, &[f64])>,
    prices: &[f64],
    amount_in: f64,
) -> Option<U256> {
    let joint = certified_bound(graph, prices, amount_in);
    let Some((sides, at)) = sides else { return joint };
    least(joint, certified_bound(sides, at, amount_in))
}

/// The lesser of two certified bounds, either of which may be missing: both hold.
pub fn least(a: Option<U256>, b: Option<U256>) -> Option<U256> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
