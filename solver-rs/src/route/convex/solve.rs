//! Minimising the dual g over prices: a damped Newton method on all copies at once, started from
//! the prices of the first unit (every copy worth its best zero-size rate to tokenOut) with
//! every copy's price first settled by one-dimensional searches, and one-dimensional exact minimisations
//! per copy where Newton stalls on a corner (sampled venues and empty tick ranges make g
//! piecewise smooth).
//!
//! Any prices give a certified bound (`certificate.rs`), so the solve may stop at any iteration:
//! the deadline is checked before each, and the best prices so far are kept.

use super::dual::{evaluate, head_price, monotone, venue_term, Evaluation};
use super::graph::{Graph, Head};
use crate::route::clock::Deadline;
use crate::route::linear::{cholesky, solve};

/// Newton iterations at most.
const MAX_ITERATIONS: usize = 80;
/// Converged when Newton's decrement is below this fraction of g.
const TOLERANCE: f64 = 1e-14;
/// Halvings of a Newton step before its damping is raised.
const MAX_HALVINGS: usize = 40;
/// Sweeps of one-dimensional minimisations before Newton starts.
const WARM_SWEEPS: usize = 3;
/// Bisection steps of a one-dimensional minimisation.
const BISECTIONS: usize = 80;

/// The prices reached and g there.
pub struct Dual {
    pub prices: Vec<f64>,
    pub evaluation: Evaluation,
    /// Whether Newton's decrement fell below [`TOLERANCE`] (false: stopped by the deadline or the
    /// iteration limit).
    pub converged: bool,
}

/// Minimises g for routing `amount_in` (raw units of tokenIn) on `graph`, until convergence or the
/// deadline.
pub fn minimise(graph: &Graph, amount_in: f64, deadline: &Deadline) -> Dual {
    let n = graph.copies.len();
    let touching = touching_venues(graph);
    let mut prices = first_unit_prices(graph);
    monotone(graph, &mut prices);
    // First-unit prices overprice every copy a large trade floods. Warm start: layer by layer from
    // tokenIn, each copy's inflow (tokenIn's: amountIn) is held fixed and its price set so that it
    // sends exactly that on at its heads' prices; repeated, so the heads' prices come from the
    // flows too. Then Newton starts with every flow in its basin.
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    for _ in 0..WARM_SWEEPS {
        let mut inflow = vec![0.0; n];
        inflow[0] = amount_in;
        for layer in 0..=top {
            for c in (0..n).filter(|&c| graph.copies[c].layer == layer) {
                settle(graph, &touching, &mut prices, c, Some(inflow[c]));
            }
            for v in 0..graph.venues.len() {
                if let Some((trade, tender, Head::Copy(d), _)) = venue_term(graph, v, &prices) {
                    if graph.copies[tender].layer == layer {
                        inflow[d] += trade.response.output;
                    }
                }
            }
        }
    }
    let scale: Vec<f64> = prices.iter().map(|p| if *p > 0.0 { *p } else { 0.0 }).collect();
    let mut current = evaluate(graph, &prices, amount_in, true);
    let mut damping = 1e-6;
    let mut converged = false;
    let mut stalls = 0;
    for _ in 0..MAX_ITERATIONS {
        if deadline.expired() {
            break;
        }
        // Newton in scaled prices p = π / scale, so every variable is near 1.
        let free: Vec<usize> = (0..n).filter(|&c| scale[c] > 0.0).collect();
        let m = free.len();
        let gradient: Vec<f64> = free.iter().map(|&c| scale[c] * current.gradient[c]).collect();
        let mut matrix = vec![0.0; m * m];
        for (a, &c) in free.iter().enumerate() {
            for (b, &d) in free.iter().enumerate() {
                matrix[a * m + b] = scale[c] * scale[d] * current.hessian[c * n + d];
            }
        }
        let largest = (0..m).map(|a| matrix[a * m + a]).fold(0.0f64, f64::max);
        let floor = if largest > 0.0 { largest * 1e-12 } else { 1.0 };
        let mut accepted = None;
        while accepted.is_none() && damping < 1e12 {
            let mut damped = matrix.clone();
            for a in 0..m {
                damped[a * m + a] += damping * matrix[a * m + a].max(floor) + floor * 1e-3;
            }
            let Some(factor) = cholesky(&damped, m) else {
                damping *= 10.0;
                continue;
            };
            let minus: Vec<f64> = gradient.iter().map(|g| -g).collect();
            let step = solve(&factor, m, &minus);
            let slope: f64 = step.iter().zip(&gradient).map(|(s, g)| s * g).sum();
            if !slope.is_finite() || slope >= 0.0 {
                break;
            }
            if -slope <= TOLERANCE * current.value.abs().max(f64::MIN_POSITIVE) {
                converged = true;
                break;
            }
            let mut t = 1.0;
            for _ in 0..MAX_HALVINGS {
                let mut trial = prices.clone();
                for (a, &c) in free.iter().enumerate() {
                    let moved = prices[c] + t * step[a] * scale[c];
                    // Prices stay positive: a step may at most halve one.
                    trial[c] = moved.max(0.5 * prices[c]);
                }
                monotone(graph, &mut trial);
                let next = evaluate(graph, &trial, amount_in, true);
                if next.value <= current.value + 1e-4 * t * slope {
                    accepted = Some((trial, next, t));
                    break;
                }
                t *= 0.5;
            }
            if accepted.is_none() {
                damping *= 10.0;
            }
        }
        let Some((trial, next, t)) = accepted else { break };
        let gain = current.value - next.value;
        (prices, current) = (trial, next);
        damping = if t == 1.0 { (damping / 4.0).max(1e-12) } else { damping * 2.0 };
        if converged {
            break;
        }
        // A step that gains nothing measurable twice in a row: Newton is on a corner; the exact
        // one-dimensional minimisations below take over.
        if gain <= 1e-15 * current.value.abs() {
            stalls += 1;
            if stalls >= 2 {
                break;
            }
        } else {
            stalls = 0;
        }
    }
    if !converged && !deadline.expired() {
        // Corners: exact minimisation along each copy in turn, from the last layer to tokenIn;
        // kept only if it lowers g.
        let before = prices.clone();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(graph.copies[c].layer));
        for _ in 0..3 {
            for &c in &order {
                if deadline.expired() {
                    break;
                }
                settle(graph, &touching, &mut prices, c, (c == 0).then_some(amount_in));
            }
        }
        if evaluate(graph, &prices, amount_in, false).value > current.value {
            prices = before;
        }
    }
    let evaluation = evaluate(graph, &prices, amount_in, false);
    Dual { prices, evaluation, converged }
}

/// Every copy priced at the best zero-size rate of its arcs times its head's price (tokenOut: 1),
/// from the last layer back: what the first unit through it is worth.
fn first_unit_prices(graph: &Graph) -> Vec<f64> {
    let n = graph.copies.len();
    let mut prices = vec![0.0; n];
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    for layer in (0..=top).rev() {
        for arc in graph.arcs.iter().filter(|a| graph.copies[a.from].layer == layer) {
            let worth = graph.sides[arc.side].curve.first_rate() * head_price(&prices, arc.to);
            if worth > prices[arc.from] {
                prices[arc.from] = worth;
            }
        }
    }
    prices
}

/// Per copy, the venues with an arc from or to it.
fn touching_venues(graph: &Graph) -> Vec<Vec<usize>> {
    let mut touching = vec![Vec::new(); graph.copies.len()];
    for (v, venue) in graph.venues.iter().enumerate() {
        for &a in &venue.arcs {
            let arc = graph.arcs[a];
            for c in [Some(arc.from), if let Head::Copy(c) = arc.to { Some(c) } else { None }].into_iter().flatten() {
                if touching[c].last() != Some(&v) && !touching[c].contains(&v) {
                    touching[c].push(v);
                }
            }
        }
    }
    touching
}

/// Copy c's inflow minus its outflow at `prices` (∂g/∂π_c; tokenIn's inflow is amountIn, given
/// as `inflow` then), or `inflow` minus its outflow when the inflow is held fixed.
fn excess(graph: &Graph, touching: &[Vec<usize>], prices: &[f64], c: usize, inflow: Option<f64>) -> f64 {
    let mut total = inflow.unwrap_or(0.0);
    for &v in &touching[c] {
        if let Some((trade, tender, receive, _)) = venue_term(graph, v, prices) {
            if tender == c {
                total -= trade.response.input;
            }
            if inflow.is_none() && receive == Head::Copy(c) {
                total += trade.response.output;
            }
        }
    }
    total
}

/// Sets π_c where c's excess changes sign, the others fixed: with the inflow computed, the
/// minimiser of g along π_c; with it held at `inflow`, the price at which c sends exactly that on.
/// The excess rises with π_c either way (g is convex), so a bracket and bisection find it.
fn settle(graph: &Graph, touching: &[Vec<usize>], prices: &mut [f64], c: usize, inflow: Option<f64>) {
    let at = |prices: &mut [f64], p: f64| {
        prices[c] = p;
        excess(graph, touching, prices, c, inflow)
    };
    let start = prices[c];
    if start.is_nan() || start <= 0.0 {
        return;
    }
    let (mut lo, mut hi) = (start, start);
    if at(prices, start) > 0.0 {
        // Too dear: flow is left over at c. Lower until it is not.
        for _ in 0..200 {
            lo *= 0.5;
            if at(prices, lo) <= 0.0 {
                break;
            }
        }
    } else {
        for _ in 0..200 {
            hi *= 2.0;
            if at(prices, hi) >= 0.0 {
                break;
            }
        }
    }
    for _ in 0..BISECTIONS {
        let mid = (lo * hi).sqrt();
        if !(mid > lo && mid < hi) {
            break;
        }
        if at(prices, mid) > 0.0 {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    prices[c] = (lo * hi).sqrt();
    monotone(graph, prices);
}
