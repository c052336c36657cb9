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
//! two-token pools: a venue whose tokens share one state (a Curve pool) can gain from trades on
//! several of its pairs at once, so its sides' maximum is no bound for it. Such a venue is priced
//! by its joint term ([`pooled_term`], `pooled.rs`): every coin tendered from its cheapest copy
//! and received at its dearest head, against the pool's budget. That needs one more condition on
//! the prices, which [`monotone`] enforces: a coin the venue both takes and gives is never worth
//! more where the venue gives it than where it takes it (else routes could move it between
//! layers through the pool for free, and the budget, which charges for such a round trip, would
//! undercount them). A family whose side curves each hold whatever the
//! venue's other sides trade is a venue per side in the graph, so its sides' terms add up (WOOFi's
//! vault when its joint budget's conditions fail; otherwise it is a pooled venue whose budget is
//! linear, `pooled_linear.rs`).

use super::curve::{Curve, Response};
use super::graph::{Graph, Head, Pooled};
use super::pooled::{CoinPrices, Joint, LinearPair};
use super::solve_tally::{tally, Step};
use super::ties::NEAR;
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
    /// Per venue, its trade (None when no side trades and none pays at zero input); a pooled
    /// venue adds one per pair of coins it trades (its deposits and withdrawals paired in
    /// proportion, where the graph has that arc).
    pub trades: Vec<Option<Trade>>,
    /// The venues (not pooled) whose best side is piecewise linear, and the withdrawals and tied
    /// deposits of the pooled venues whose budget is linear (WOOFi's vault,
    /// [`PooledTerm::corners`]): the only ones
    /// whose flow can jump at a corner (corners.rs, `Corners`). Empty, and no allocation, on graphs
    /// without such a side.
    pub piecewise: Vec<Booked>,
}

/// A trade that may sit on a linear piece's corner, with the copy it tenders from and the head it
/// delivers to (a side's arc may go elsewhere: ties are booked to the deepest tender and the
/// shallowest head, [`venue_term`]).
#[derive(Clone, Copy, Debug)]
pub struct Booked {
    pub tender: usize,
    pub receive: Head,
    /// Its flows as the evaluation booked them.
    pub response: Response,
    pub piece: Piece,
}

/// Where a booked trade's corner and its piece come from.
#[derive(Clone, Copy, Debug)]
pub enum Piece {
    /// A side's piecewise-linear curve (its index in the graph's sides).
    Side(usize),
    /// A pooled venue's linear pair ([`PooledTerm::corners`]): at `rate` (the tender's price over
    /// the head's) it carries anything from `before` to `whole` (input, output); below it, whole.
    /// `tie`: two deposits tied (rather than a withdrawal and the deposit funding it).
    Linear { rate: f64, before: (f64, f64), whole: (f64, f64), tie: bool },
}

impl Piece {
    /// The trade's (input, output) at the tender's price over the head's `rate`.
    pub fn respond(&self, graph: &Graph, rate: f64) -> (f64, f64) {
        match *self {
            Piece::Side(side) => {
                let r = graph.sides[side].curve.respond(rate);
                (r.input, r.output)
            }
            Piece::Linear { rate: corner, before, whole, .. } => match rate < corner {
                true => whole,
                false => before,
            },
        }
    }
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

/// One venue's term at some prices: its best side's trade and the copies it joins, the most any
/// side's value at zero input is worth and the head it goes to, and the term's value.
#[derive(Clone, Copy, Debug)]
pub struct VenueTerm {
    /// The side whose trade pays the most above its value at zero input.
    pub trade: Trade,
    pub tender: usize,
    pub receive: Head,
    /// The trade's side's value at zero input (its curve's allowance, raw units out): part of
    /// `trade.response.output`, not of the trade's flow.
    pub trade_allowance: f64,
    /// The highest-worth side's value at zero input and where it is received: a flow of its own.
    pub allowance: (Head, f64),
    /// The term: the trade's worth above its allowance plus the highest allowance's worth.
    pub value: f64,
}

impl VenueTerm {
    /// What the trade and the allowance deliver to `head`, raw units of its token.
    pub fn received_at(&self, head: Head) -> f64 {
        let traded = if self.receive == head {
            self.trade.response.output - self.trade_allowance
        } else {
            0.0
        };
        traded + if self.allowance.0 == head { self.allowance.1 } else { 0.0 }
    }
}

/// One venue's term at `prices`: max over its sides of the trade's worth above the side's value at
/// zero input, plus max over its sides of that value's worth. At least the best side's worth
/// (allowance and trade on one side), so still a bound, and above it by at most one allowance (a
/// family's rounding slack, `pools/bound_curve.rs`). Taken whole per side, an allowance worth more
/// than a small trade's surplus made the reverse side (idle, its allowance alone) the best one:
/// the venue's flow jumped from nothing to a whole trade at one price, a corner of g the dual
/// stopped on unconverged, a middle token's copy receiving a trade and sending nothing (the
/// embedded market's E-CLP USDC/WETH: 3-hop bounds up to 57 bps above the plan,
/// docs/dex-kinds.md, GYROSCOPE_ECLP, *Route quality*).
///
/// Sides of equal worth (every idle side is worth 0 above its allowance) are told apart by how
/// near each is to its first trade (its first rate against the prices), so that a side on its
/// first corner is the one booked and corners.rs's `Corners` can join its copies: the idle reverse
/// side booked instead hid the E-CLP's USDC→WETH side on its first corner, USDC after one hop
/// received a trade and sent nothing, and the dual stopped there (DEGEN→DAI 3-hop $1,000 8.7 bps
/// above the plan with the allowance apart, 0.39 with the tie-break; wstETH→DEGEN 3-hop $100 20.4
/// bps before either, 0.09 after).
pub fn venue_term(graph: &Graph, venue: usize, prices: &[f64]) -> Option<VenueTerm> {
    let arcs = &graph.venues[venue].arcs;
    // (trade, tender, receive, its allowance, its worth above it)
    let mut best: Option<(Trade, usize, Head, f64, f64)> = None;
    let mut allowance: Option<(Head, f64, f64)> = None;
    // How near the best side is to its first trade (its tie-break).
    let mut lead_best = f64::NEG_INFINITY;
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
        // gradient (ties.rs, *tie groups*). g itself does not depend on the choice.
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
        let side = &graph.sides[side];
        let response = side.curve.respond(p_tender / p_receive);
        // Never above the trade's own output (`min`, not `clamp`: a NaN must not panic).
        let at_zero = side.at_zero.min(response.output).max(0.0);
        let value = p_receive * (response.output - at_zero) - p_tender * response.input;
        // Among sides of equal worth (idle ones: 0), the one nearest its first trade, so that a
        // side on its first corner is the one booked (`Booked`, corners.rs's `Corners`).
        let lead = (p_receive * side.first_rate - p_tender) / p_tender;
        if best.as_ref().is_none_or(|b| value > b.4 || (value == b.4 && lead > lead_best)) {
            best = Some((Trade { arc, response }, tender, receive, at_zero, value));
            lead_best = lead;
        }
        let worth = p_receive * at_zero;
        if allowance.as_ref().is_none_or(|a| worth > a.2) {
            allowance = Some((receive, at_zero, worth));
        }
    }
    let (trade, tender, receive, trade_allowance, value) = best?;
    let (head, granted, worth) = allowance?;
    Some(VenueTerm {
        trade,
        tender,
        receive,
        trade_allowance,
        allowance: (head, granted),
        value: value + worth,
    })
}

/// g, its gradient, and (with `with_hessian`) its Hessian at `prices` (one per copy, tokenIn's
/// first; all positive).
pub fn evaluate(graph: &Graph, prices: &[f64], amount_in: f64, with_hessian: bool) -> Evaluation {
    tally(Step::Evaluate);
    let n = graph.copies.len();
    let mut gradient = vec![0.0; n];
    let mut hessian = if with_hessian { vec![0.0; n.saturating_mul(n)] } else { Vec::new() };
    let mut value = prices[0] * amount_in;
    let mut magnitude = value;
    gradient[0] += amount_in;
    let mut trades = Vec::with_capacity(graph.venues.len());
    let mut piecewise = Vec::new();
    for venue in 0..graph.venues.len() {
        if let Some(pooled) = &graph.venues[venue].pooled {
            let term = pooled_term(pooled, prices);
            value += term.joint.value;
            magnitude += term.joint.magnitude;
            term.flows(|c, flow| {
                if let Head::Copy(c) = c {
                    gradient[c] += flow;
                }
            });
            if with_hessian {
                let variables = term.variables();
                let m = variables.len();
                for (a, va) in variables.iter().enumerate() {
                    for (b, vb) in variables.iter().enumerate() {
                        if let (Some(ca), Some(cb)) = (va, vb) {
                            hessian[entry(*ca, *cb, n)] += term.joint.hessian[entry(a, b, m)];
                        }
                    }
                }
            }
            trades.extend(term.trades(graph, venue).into_iter().map(Some));
            piecewise.extend(term.corners());
            continue;
        }
        let Some(term) = venue_term(graph, venue, prices) else {
            trades.push(None);
            continue;
        };
        let VenueTerm { trade, tender, receive, trade_allowance, allowance, .. } = term;
        let response = trade.response;
        let (p_tender, p_receive) = (prices[tender], head_price(prices, receive));
        value += term.value;
        magnitude += p_receive * response.output
            + p_tender * response.input
            + head_price(prices, allowance.0) * allowance.1;
        gradient[tender] -= response.input;
        if let Head::Copy(c) = receive {
            gradient[c] += response.output - trade_allowance;
        }
        if let Head::Copy(c) = allowance.0 {
            gradient[c] += allowance.1;
        }
        if with_hessian
            && response.slope > 0.0
            && !beyond_reach(graph, &trade, p_tender / p_receive)
        {
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
        let side = graph.arcs[trade.arc].side;
        if matches!(graph.sides[side].curve, Curve::Piecewise(_)) {
            piecewise.push(Booked { tender, receive, response, piece: Piece::Side(side) });
        }
        trades.push(Some(trade));
    }
    Evaluation { value, magnitude, gradient, hessian, trades, piecewise }
}

/// Whether `trade` is idle (no input) at `rate` above its side's first rate by more than
/// `ties::NEAR` (off its first corner): its term is 0 from there up, and so is its true
/// curvature. The curves' stand-in curvature for an idle linear piece (its width over its rate,
/// `Piecewise::respond`) is meant for a rate at its corner; off it, it told Newton that a trade as
/// wide as the piece (WOOFi's vault: 98,000 cbETH) would start at once, so the tokenIn copy's price
/// moved by 10⁻¹⁶ a step with the whole amountIn unsent (docs/solver-optimizer.md, *The vault's
/// linear side*). A step that crosses the corner raises g and the line search shortens it.
fn beyond_reach(graph: &Graph, trade: &Trade, rate: f64) -> bool {
    trade.response.input == 0.0
        && rate > (1.0 + NEAR) * graph.sides[graph.arcs[trade.arc].side].curve.first_rate()
}

/// Raises prices so that no token is worth more after more hops: for every token with copies in
/// several layers, each copy is priced at least as its copy one layer further. Any prices may be
/// raised this way; the bound is only evaluated at such prices.
pub fn monotone(graph: &Graph, prices: &mut [f64]) {
    layers_monotone(graph, prices);
    // Pooled venues: a coin's copies that tender it are raised to the dearest copy it is received
    // at (module docs), then the layers again. Each raise sets a price to another's, so this ends.
    for _ in 0..=graph.copies.len() {
        let mut raised = false;
        for pooled in graph.venues.iter().filter_map(|v| v.pooled.as_ref()) {
            for (tenders, receives) in pooled.tenders.iter().zip(&pooled.receives) {
                let dearest = receives.iter().fold(f64::NEG_INFINITY, |m, &h| match h {
                    Head::Copy(c) => m.max(prices[c]),
                    Head::Out => m,
                });
                for &c in tenders {
                    if prices[c] < dearest {
                        prices[c] = dearest;
                        raised = true;
                    }
                }
            }
        }
        if !raised {
            return;
        }
        layers_monotone(graph, prices);
    }
}

/// Each copy priced at least as its token's copy one layer further.
fn layers_monotone(graph: &Graph, prices: &mut [f64]) {
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

/// A pooled venue's joint term at some prices, with the copies it takes each coin from and the
/// heads it gives each coin to.
pub struct PooledTerm {
    pub joint: Joint,
    /// A linear budget's withdrawals, each with the deposit that funds it (empty otherwise).
    pub pairs: Vec<LinearPair>,
    /// Per coin: the cheapest copy that tenders it.
    pub tender: Vec<Option<usize>>,
    /// Per coin: the dearest head that receives it.
    pub receive: Vec<Option<Head>>,
}

impl PooledTerm {
    /// Each (copy or head, inflow − outflow) of the venue's trade.
    pub fn flows(&self, mut flow: impl FnMut(Head, f64)) {
        for t in 0..self.tender.len() {
            if let Some(c) = self.tender[t] {
                if self.joint.inputs[t] != 0.0 {
                    flow(Head::Copy(c), -self.joint.inputs[t]);
                }
            }
            if let Some(h) = self.receive[t] {
                if self.joint.outputs[t] != 0.0 {
                    flow(h, self.joint.outputs[t]);
                }
            }
        }
    }

    /// The copy of each of the joint's price variables (2t: coin t's tender, 2t + 1: its
    /// receive), None where it is tokenOut's fixed price or no arc uses it.
    fn variables(&self) -> Vec<Option<usize>> {
        (0..self.tender.len())
            .flat_map(|t| {
                let receive = match self.receive[t] {
                    Some(Head::Copy(c)) => Some(c),
                    _ => None,
                };
                [self.tender[t], receive]
            })
            .collect()
    }

    /// A linear budget's pairs as linear pieces (`pooled_linear.rs`): each withdrawal from the
    /// deposit's copy to its head, and each deposit tied with the deposit from its copy to the
    /// deposit's, whether or not the graph has an arc between them. On the pair's corner the pair
    /// may carry anything up to its whole at the same g, as a linear side's piece may, and the
    /// solve joins the two copies the same way (corners.rs, `Corners`).
    fn corners(&self) -> impl Iterator<Item = Booked> + '_ {
        self.pairs.iter().filter_map(move |pair| {
            let tender = self.tender[pair.from]?;
            let receive = match pair.withdrawal {
                true => self.receive[pair.to]?,
                false => Head::Copy(self.tender[pair.to]?),
            };
            let response = Response { input: pair.input, output: pair.output, slope: 0.0 };
            let (rate, before, whole, tie) = (pair.rate, pair.before, pair.whole, !pair.withdrawal);
            let piece = Piece::Linear { rate, before, whole, tie };
            Some(Booked { tender, receive, response, piece })
        })
    }

    /// The trade as arcs, for the decomposition into paths: each deposit's input split over the
    /// withdrawals in proportion to the budget they spend, each withdrawal's output over the
    /// deposits in proportion to the budget they bring, on the arc from the deposit's copy to the
    /// withdrawal's head where the graph has one.
    fn trades(&self, graph: &Graph, venue: usize) -> Vec<Trade> {
        let budget = &self.joint.budget;
        let brought: f64 = budget.iter().filter(|b| **b > 0.0).sum();
        let spent: f64 = budget.iter().filter(|b| **b < 0.0).map(|b| -b).sum();
        let mut trades = Vec::new();
        if !(brought > 0.0 && spent > 0.0) {
            return trades;
        }
        for t in (0..budget.len()).filter(|&t| budget[t] > 0.0) {
            for u in (0..budget.len()).filter(|&u| budget[u] < 0.0) {
                let (Some(from), Some(to)) = (self.tender[t], self.receive[u]) else { continue };
                if let Some(arc) = pair_arc(graph, venue, (from, to), (t, u)) {
                    let input = self.joint.inputs[t] * (-budget[u] / spent);
                    let output = self.joint.outputs[u] * (budget[t] / brought);
                    trades.push(Trade { arc, response: Response { input, output, slope: 0.0 } });
                }
            }
        }
        trades
    }
}

/// The venue's arc from copy `from` to head `to` trading coin `t` for coin `u`, if the graph has one.
fn pair_arc(
    graph: &Graph,
    venue: usize,
    (from, to): (usize, Head),
    (t, u): (usize, usize),
) -> Option<usize> {
    graph.venues[venue].arcs.iter().copied().find(|&a| {
        let arc = graph.arcs[a];
        arc.from == from
            && arc.to == to
            && usize::from(arc.hop.token_in) == t
            && usize::from(arc.hop.token_out) == u
    })
}

/// A pooled venue's term at `prices`: each coin tendered from its cheapest copy (ties: the
/// deepest) and received at its dearest head (ties: the shallowest), as [`venue_term`] books a
/// side's.
pub fn pooled_term(pooled: &Pooled, prices: &[f64]) -> PooledTerm {
    tally(Step::PooledTerm);
    let coins = pooled.budget.coins.len();
    let mut tender = vec![None; coins];
    let mut receive = vec![None; coins];
    let mut coin_prices = vec![CoinPrices::default(); coins];
    for t in 0..coins {
        tender[t] = cheapest_tender(&pooled.tenders[t], prices);
        receive[t] = dearest_receive(&pooled.receives[t], prices);
        coin_prices[t] = CoinPrices {
            tender: tender[t].map(|c| prices[c]),
            receive: receive[t].map(|h| head_price(prices, h)).filter(|p| *p > 0.0),
        };
        if coin_prices[t].receive.is_none() {
            receive[t] = None;
        }
    }
    let (joint, pairs) = match pooled.budget.is_linear() {
        true => pooled.budget.joint_linear(&coin_prices),
        false => (pooled.budget.joint(&coin_prices), Vec::new()),
    };
    PooledTerm { joint, pairs, tender, receive }
}

/// The copy a pooled venue's term tenders a coin from, of `tenders` (the coin's tendering copies):
/// the cheapest at `prices`, ties the deepest.
fn cheapest_tender(tenders: &[usize], prices: &[f64]) -> Option<usize> {
    tenders.iter().copied().fold(None, |best: Option<usize>, c| match best {
        Some(b) if prices[b] < prices[c] => Some(b),
        Some(b) if prices[b] == prices[c] && b > c => Some(b),
        _ => Some(c),
    })
}

/// The head a pooled venue's term delivers a coin to, of `receives` (the coin's receiving heads):
/// the dearest at `prices`, ties the shallowest (before [`pooled_term`] drops one priced ≤ 0).
fn dearest_receive(receives: &[Head], prices: &[f64]) -> Option<Head> {
    receives.iter().copied().fold(None, |best: Option<Head>, h| match best {
        Some(b) if head_price(prices, b) >= head_price(prices, h) => Some(b),
        _ => Some(h),
    })
}

/// Whether [`pooled_term`]'s flows at `prices` may touch copy `c`: it tenders a coin from c, or
/// (unless `tendered_only`) delivers one to c. Where not, the term's flows at c are none, so a
/// copy's excess is known without the venue's joint term, the dual's dearest step.
pub fn pooled_flows_at(pooled: &Pooled, prices: &[f64], c: usize, tendered_only: bool) -> bool {
    let tenders = pooled.tenders.iter().any(|t| cheapest_tender(t, prices) == Some(c));
    tenders
        || !tendered_only
            && pooled.receives.iter().any(|r| dearest_receive(r, prices) == Some(Head::Copy(c)))
}
