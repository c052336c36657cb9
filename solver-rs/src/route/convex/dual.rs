//! The dual function of the routing problem, and its derivatives.
//!
//! Routing `amountIn` of tokenIn to tokenOut over the graph's venues is: maximise what reaches
//! tokenOut, subject to each copy's outflow not exceeding its inflow (tokenIn's inflow is
//! amountIn) and each venue trading on its curve. Pricing the flow constraints with π ≥ 0 per copy
//! (tokenOut's price is 1) gives the dual function
//!
//! g(π) = π_in·amountIn + Σ_venues max_sides sup_δ≥0 (π_recv·f(δ) − π_tend·δ)
//!
//! which is at least the optimum for every π (weak duality), and equal to it at the minimiser
//! (the problem is convex). Each venue's term is the best trade against fixed prices, solved by its
//! curve ([`Curve::respond`]); its input and output are the venue's flow, so the gradient is each
//! copy's inflow minus its outflow.
//!
//! A venue's sides and copies: a side (pool and direction) may join several pairs of copies; it
//! tenders from the cheapest of its input copies and delivers to the dearest of its output ones.
//! With prices that never rise with the layer (π of a token after k hops ≥ after k + 1 hops,
//! [`monotone`]), no plan's swaps on a pool, in one direction or both, are worth more at π than
//! the best single side's trade (docs/solver-optimizer.md, *The bound*). That argument is about
//! two-token pools: a venue of more tokens can gain from trades on several of its pairs at once,
//! so its sides' maximum is no bound for it. A family whose side curves each hold whatever the
//! venue's other sides trade (WOOFi) is a venue per side in the graph, so its sides' terms add up;
//! no other family of more than two tokens is priced until its venue term is written
//! (docs/dex-kinds.md, *Adding a family*).

use super::curve::Response;
use super::graph::{Graph, Head};
use crate::route::linear::entry;

/// The active trade of one venue at some prices.
#[derive(Clone, Copy, Debug)]
pub struct Trade {
    /// The arc whose copies the trade joins.
    pub arc: usize,
    pub response: Response,
}

/// g and its derivatives at one price vector.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// g(π).
    pub value: f64,
    /// The sum of the magnitudes of every term g adds and subtracts: the float error of `value`
    /// is far below 10⁻¹² of it.
    pub magnitude: f64,
    /// ∂g/∂π per copy: inflow minus outflow (tokenIn's inflow is amountIn).
    pub gradient: Vec<f64>,
    /// ∂²g/∂π², row-major copies × copies (empty unless asked for).
    pub hessian: Vec<f64>,
    /// Per venue, its trade (None when no side trades and none pays at zero input).
    pub trades: Vec<Option<Trade>>,
}

/// The price of an arc's head.
pub fn head_price(prices: &[f64], head: Head) -> f64 {
    match head {
        Head::Copy(c) => prices[c],
        Head::Out => 1.0,
    }
}

/// The layer of an arc's head (tokenOut: past every copy).
fn head_layer(graph: &Graph, head: Head) -> usize {
    match head {
        Head::Copy(c) => graph.copies[c].layer,
        Head::Out => usize::MAX,
    }
}

/// One venue's term at `prices`: its best side's trade, the copies it joins, and its value.
pub fn venue_term(
    graph: &Graph,
    venue: usize,
    prices: &[f64],
) -> Option<(Trade, usize, Head, f64)> {
    let arcs = &graph.venues[venue].arcs;
    let mut best: Option<(Trade, usize, Head, f64)> = None;
    for (k, &first) in arcs.iter().enumerate() {
        let side = graph.arcs[first].side;
        // Each side once: at its first arc.
        if arcs[..k].iter().any(|&a| graph.arcs[a].side == side) {
            continue;
        }
        // The side's arcs, without collecting them: this runs for every venue at every price the
        // solve tries, where an allocation per call was most of its time.
        let same = || arcs.iter().copied().filter(move |&a| graph.arcs[a].side == side);
        // Ties, which the optimum has wherever a token's flow passes from one layer to the next,
        // go to the deepest tendering copy and the shallowest receiving one: the flow is booked
        // as if each copy were priced a hair above the next layer's, so every copy's excess is
        // what it passes on to the next layer and the solve's tie groups read it from the
        // gradient (solve.rs, *tie groups*). g itself does not depend on the choice.
        let tender = same().map(|a| graph.arcs[a].from).fold(usize::MAX, |best, c| {
            if best == usize::MAX
                || prices[c] < prices[best]
                || (prices[c] == prices[best] && graph.copies[c].layer > graph.copies[best].layer)
            {
                c
            } else {
                best
            }
        });
        let receive =
            same().map(|a| graph.arcs[a].to).fold(None, |best: Option<Head>, h| match best {
                Some(b) if head_price(prices, b) > head_price(prices, h) => Some(b),
                Some(b)
                    if head_price(prices, b) == head_price(prices, h)
                        && head_layer(graph, b) <= head_layer(graph, h) =>
                {
                    Some(b)
                }
                _ => Some(h),
            })?;
        // The arc the flow is booked on: from the tendering copy, to its dearest head.
        let arc = same().filter(|&a| graph.arcs[a].from == tender).fold(
            None,
            |best: Option<usize>, a| {
                let (b_head, a_head) = (best.map(|b| graph.arcs[b].to), graph.arcs[a].to);
                match b_head {
                    Some(b) if head_price(prices, b) > head_price(prices, a_head) => best,
                    Some(b)
                        if head_price(prices, b) == head_price(prices, a_head)
                            && head_layer(graph, b) <= head_layer(graph, a_head) =>
                    {
                        best
                    }
                    _ => Some(a),
                }
            },
        )?;
        let (p_tender, p_receive) = (prices[tender], head_price(prices, receive));
        // Output worth nothing: no trade is worth making (and none is worth anything).
        if p_receive.is_nan() || p_receive <= 0.0 {
            continue;
        }
        let response = graph.sides[side].curve.respond(p_tender / p_receive);
        let value = p_receive * response.output - p_tender * response.input;
        if best.as_ref().is_none_or(|b| value > b.3) {
            best = Some((Trade { arc, response }, tender, receive, value));
        }
    }
    best
}

/// g, its gradient, and (with `with_hessian`) its Hessian at `prices` (one per copy, tokenIn's
/// first; all positive).
pub fn evaluate(graph: &Graph, prices: &[f64], amount_in: f64, with_hessian: bool) -> Evaluation {
    let n = graph.copies.len();
    let mut gradient = vec![0.0; n];
    let mut hessian = if with_hessian { vec![0.0; n.saturating_mul(n)] } else { Vec::new() };
    let mut value = prices[0] * amount_in;
    let mut magnitude = value;
    gradient[0] += amount_in;
    let mut trades = Vec::with_capacity(graph.venues.len());
    for venue in 0..graph.venues.len() {
        let Some((trade, tender, receive, term)) = venue_term(graph, venue, prices) else {
            trades.push(None);
            continue;
        };
        let response = trade.response;
        let (p_tender, p_receive) = (prices[tender], head_price(prices, receive));
        value += term;
        magnitude += p_receive * response.output + p_tender * response.input;
        gradient[tender] -= response.input;
        if let Head::Copy(c) = receive {
            gradient[c] += response.output;
        }
        if with_hessian && response.slope > 0.0 {
            // The term is the perspective π_recv·h(π_tend/π_recv) of the curve's conjugate h, with
            // h'' = slope: its second derivatives in (π_tend, π_recv).
            let rate = p_tender / p_receive;
            let k = response.slope / p_receive;
            hessian[entry(tender, tender, n)] += k;
            if let Head::Copy(c) = receive {
                hessian[entry(tender, c, n)] -= rate * k;
                hessian[entry(c, tender, n)] -= rate * k;
                hessian[entry(c, c, n)] += rate * rate * k;
            }
        }
        trades.push(Some(trade));
    }
    Evaluation { value, magnitude, gradient, hessian, trades }
}

/// Raises prices so that no token is worth more after more hops: for every token with copies in
/// several layers, each copy is priced at least as its copy one layer further. Any prices may be
/// raised this way; the bound is only evaluated at such prices.
pub fn monotone(graph: &Graph, prices: &mut [f64]) {
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    for layer in (1..top).rev() {
        for (c, copy) in graph.copies.iter().enumerate().filter(|(_, copy)| copy.layer == layer) {
            if let Some(later) = graph
                .copies
                .iter()
                .position(|d| d.token == copy.token && Some(d.layer) == layer.checked_add(1))
            {
                if prices[c] < prices[later] {
                    prices[c] = prices[later];
                }
            }
        }
    }
}
