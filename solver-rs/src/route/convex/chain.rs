//! The bound on plans that strand nothing, where the graph is a chain of layers.
//!
//! The certified bound (`dual.rs`) allows flow to stay at a middle token: its constraints say a
//! copy sends on at most what reaches it. A plan cannot: it spends all of amountIn and every
//! route carries its output to tokenOut. When the venues past some middle token cannot take what
//! the venues before it deliver (a trade far beyond the market's depth), the optimum strands flow
//! there, its price falls to 0, and no plan comes near the bound.
//!
//! Where every arc goes from one layer's only copy to the next layer's (each path has exactly as
//! many hops as there are layers, e.g. a tail token with one neighbour on each side), the best
//! plan that strands nothing is bounded in closed form: whatever reaches a layer must all go
//! through it, a layer's output is at most `M(x)`, the most its venues' curves pay for x split
//! among them (a water level: every venue trades up to the marginal rate r where their inputs sum
//! to x), and the layers' bounds compose because each `M` rises with its input. So
//! `M_L(…M_1(amountIn))` bounds every plan, and compared with the certified bound it says how
//! much of a gap is the plan format's rather than the optimizer's. An upper bound again: each
//! layer's `M` is evaluated a little above its value (below).

use super::graph::{Graph, Head};

/// Bisection steps of a layer's water level (on a log scale of the rate).
const LEVEL_STEPS: usize = 200;

/// `M_L(min(C_L, …M_1(amount_in)))` on a chain graph (raw units of tokenOut, C_k the most layer
/// k's venues take), None if the graph is not a chain (some arc skips a layer, or a layer holds
/// two copies) or the first layer cannot take amountIn.
pub fn bound_without_stranding(graph: &Graph, amount_in: f64) -> Option<f64> {
    let layers = graph.copies.len();
    // A chain: copy k is layer k, and each arc goes from copy k to copy k + 1 (Out from the last).
    let chain = graph.copies.iter().enumerate().all(|(k, c)| c.layer == k)
        && graph.arcs.iter().all(|a| match a.to {
            Head::Copy(d) => d.checked_sub(1) == Some(a.from),
            Head::Out => layers.checked_sub(1) == Some(a.from),
        });
    if !chain {
        return None;
    }
    let mut reaching = amount_in;
    for layer in 0..layers {
        let mut sides: Vec<usize> =
            graph.arcs.iter().filter(|a| a.from == layer).map(|a| a.side).collect();
        sides.sort_unstable();
        sides.dedup();
        // Past tokenIn, a plan may deliver less than the layer before could (by splitting that
        // layer badly: every route still carries its output on), but never more than this
        // layer's venues take: what reaches it is clamped to their capacity.
        let capacity = layer_capacity(graph, &sides);
        if layer > 0 {
            reaching = reaching.min(capacity);
        } else if amount_in > capacity {
            return None;
        }
        reaching = layer_bound(graph, &sides, reaching)?;
    }
    Some(reaching)
}

/// What the curves of `sides` take at most, together (raw units of their input token): each one's
/// best trade at the smallest positive rate, the whole of a bounded curve (a concentrated pool to
/// its last initialized tick, a sampled venue to its last sample), and for an unbounded one
/// (constant product, stable) an input past any amount a token can hold.
fn layer_capacity(graph: &Graph, sides: &[usize]) -> f64 {
    sides.iter().map(|&s| graph.sides[s].curve.respond(f64::MIN_POSITIVE).input).sum()
}

/// The most the curves of `sides` pay, together, for `amount` split among them, rounded up: with
/// r_hi a rate at which their inputs sum to at most `amount`, every further unit pays at most
/// r_hi (each curve is concave and its response at r_hi is where its slope falls to r_hi), so
/// `Y(r_hi) + (amount − X(r_hi))·r_hi` is an upper bound, tight as the bisection closes.
fn layer_bound(graph: &Graph, sides: &[usize], amount: f64) -> Option<f64> {
    let total = |rate: f64| {
        sides
            .iter()
            .map(|&s| graph.sides[s].curve.respond(rate))
            .fold((0.0, 0.0), |(x, y), r| (x + r.input, y + r.output))
    };
    let first = sides.iter().map(|&s| graph.sides[s].curve.first_rate()).fold(0.0f64, f64::max);
    if first.is_nan() || first <= 0.0 {
        return None;
    }
    // From the first unit's rate (nothing trades above it) down until the inputs reach `amount`.
    let mut hi = first;
    let mut lo = first;
    loop {
        lo *= 0.5;
        if total(lo).0 >= amount {
            break;
        }
        if lo < first * 1e-300 {
            return None;
        }
    }
    for _ in 0..LEVEL_STEPS {
        let mid = (lo * hi).sqrt();
        if !(mid > lo && mid < hi) {
            break;
        }
        if total(mid).0 >= amount {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (input, output) = total(hi);
    Some(output + (amount - input).max(0.0) * hi)
}
