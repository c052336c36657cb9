//! Minimising the dual g over prices: a damped Newton method on all copies at once, started from
//! the prices of the first unit (every copy worth its best zero-size rate to tokenOut) with
//! every copy's price first settled by one-dimensional searches, and one-dimensional exact minimisations
//! per copy where Newton stalls on a corner (sampled venues and empty tick ranges make g
//! piecewise smooth). Copies a linear piece joins at its corner move as one Newton variable
//! ([`Corners`]), and the solve counts as converged only where flow is conserved ([`conserved`]).
//!
//! Any prices give a certified bound (`certificate.rs`), so the solve may stop anywhere: the
//! deadline is checked before every evaluation of g or of a copy's excess (each a pass over some
//! of the graph's venues), in the warm start's searches, Newton's line search and the corners'
//! minimisations alike, and the best prices so far are kept.

use super::dual::{
    evaluate, head_price, monotone, pooled_term, venue_term, Booked, Evaluation, Piece, VenueTerm,
};
use super::graph::{Graph, Head};
use super::sign_change::bracket_and_bisect;
use crate::route::clock::Deadline;
use crate::route::linear::{cholesky, entry, solve};

/// Newton iterations at most.
const MAX_ITERATIONS: usize = 80;
/// Converged when Newton's decrement is below this fraction of g.
const TOLERANCE: f64 = 1e-14;
/// Halvings of a Newton step before its damping is raised.
const MAX_HALVINGS: usize = 40;
/// Sweeps of one-dimensional minimisations before Newton starts.
const WARM_SWEEPS: usize = 3;
/// The most a Newton step moves one scaled price (a price by half its value), before the line search.
const MAX_MOVE: f64 = 0.5;
/// Copies of a token in consecutive layers within this relative price of each other count as
/// tied (see [`tie_groups`]).
pub(super) const NEAR: f64 = 1e-9;
/// Flow counts as conserved when no tie group's excess, valued at its price, is above this
/// fraction of g ([`conserved`]). Newton's decrement below [`TOLERANCE`] puts it near 10⁻⁷ where
/// g is smooth.
const FLOW_TOLERANCE: f64 = 1e-6;
/// A copy priced below this fraction of its first unit's worth counts as driven towards 0
/// ([`conserved`]).
const DRIVEN: f64 = 1e-6;

/// The prices reached and g there.
pub struct Dual {
    pub prices: Vec<f64>,
    pub evaluation: Evaluation,
    /// Whether flow is conserved at `prices` ([`conserved`]): every tie group sends on what it
    /// receives, so g there is what a flow delivers, the optimum. False when the deadline or the
    /// iteration limit stopped the solve, or when it stopped on a corner of g where the venues'
    /// best trades leave flow unsent or overdrawn (Newton's decrement can vanish there).
    pub converged: bool,
}

/// Minimises g for routing `amount_in` (raw units of tokenIn) on `graph`, until convergence or the
/// deadline.
pub fn minimise(graph: &Graph, amount_in: f64, deadline: &Deadline) -> Dual {
    let n = graph.copies.len();
    let touching = touching_venues(graph);
    let deeper = deeper_copies(graph);
    let mut prices = first_unit_prices(graph);
    monotone(graph, &mut prices);
    // First-unit prices overprice every copy a large trade floods. Warm start: layer by layer from
    // tokenIn, each copy's inflow (tokenIn's: amountIn) is held fixed and its price set so that it
    // sends exactly that on at its heads' prices; repeated, so the heads' prices come from the
    // flows too. Prices are made monotone after each sweep, not after each copy: a copy settled
    // below its next layer's copy is where the two share their pools to tokenOut, and raising it
    // back at once would undo the search. Then Newton starts with every flow in its basin.
    //
    // The sweeps need not improve on each other: each copy is settled against its heads' prices
    // of the sweep before, so where a deep copy's price jumps (flooded by one sweep's inflow,
    // starved by the next's) the copy that tenders to it is left priced for the old one, and a
    // venue between them may look able to drain its pool for nothing (a deep stable pool between
    // two middle tokens: g 10⁴ times the optimum, and Newton's steps, at most halving a price,
    // spent its iterations walking back, docs/solver-optimizer.md, *The bound*). Any prices
    // bound, and g is the bound: Newton starts from the lowest g met, first-unit prices included.
    let top = graph.copies.iter().map(|c| c.layer).max().unwrap_or(0);
    let mut best = (!deadline.expired())
        .then(|| (evaluate(graph, &prices, amount_in, false).value, prices.clone()));
    'sweeps: for _ in 0..WARM_SWEEPS {
        let mut inflow = vec![0.0; n];
        inflow[0] = amount_in;
        for layer in 0..=top {
            for c in (0..n).filter(|&c| graph.copies[c].layer == layer) {
                settle(graph, &touching, &mut prices, &[c], Some(inflow[c]), deadline);
            }
            // The inflows are a pass over the venues: not begun past the deadline.
            if deadline.expired() {
                break 'sweeps;
            }
            for v in 0..graph.venues.len() {
                if let Some(pooled) = &graph.venues[v].pooled {
                    pooled_term(pooled, &prices).flows(|head, flow| {
                        if let Head::Copy(d) = head {
                            if flow > 0.0 && graph.copies[d].layer == layer.saturating_add(1) {
                                inflow[d] += flow;
                            }
                        }
                    });
                    continue;
                }
                if let Some(term @ VenueTerm { tender, receive: Head::Copy(d), .. }) =
                    venue_term(graph, v, &prices)
                {
                    if graph.copies[tender].layer == layer {
                        inflow[d] += term.received_at(Head::Copy(d));
                    }
                }
            }
        }
        monotone(graph, &mut prices);
        // An evaluation: not begun past the deadline.
        if deadline.expired() {
            break;
        }
        let value = evaluate(graph, &prices, amount_in, false).value;
        if best.as_ref().is_none_or(|(lowest, _)| value < *lowest) {
            best = Some((value, prices.clone()));
        }
    }
    // A sweep the deadline cut short left its prices unraised (idempotent otherwise); its g is
    // not known, so the lowest g evaluated is kept over it.
    monotone(graph, &mut prices);
    if let Some((_, lowest)) = best {
        prices = lowest;
    }
    descend(graph, &touching, &deeper, prices, amount_in, deadline)
}

/// [`minimise`] from `prices` (every copy's, positive) without the warm start: the test that a
/// start far from the optimum still converges ([`MAX_MOVE`]'s trust region).
#[cfg(test)]
pub(super) fn minimise_from(
    graph: &Graph,
    prices: Vec<f64>,
    amount_in: f64,
    deadline: &Deadline,
) -> Dual {
    let (touching, deeper) = (touching_venues(graph), deeper_copies(graph));
    descend(graph, &touching, &deeper, prices, amount_in, deadline)
}

/// Newton from `prices`, then the corners' minimisations where it stalls.
fn descend(
    graph: &Graph,
    touching: &[Vec<usize>],
    deeper: &[Option<usize>],
    mut prices: Vec<f64>,
    amount_in: f64,
    deadline: &Deadline,
) -> Dual {
    let mut damping = 1e-6;
    let mut converged = false;
    // Newton's decrement fell below its tolerance (converged or on a corner).
    let mut stopped = false;
    let mut stalls = 0u32;
    // Past the deadline Newton does not start: its first evaluation would be wasted.
    let mut current = match deadline.expired() {
        true => evaluate(graph, &prices, amount_in, false),
        false => evaluate(graph, &prices, amount_in, true),
    };
    for _ in 0..MAX_ITERATIONS {
        if deadline.expired() {
            break;
        }
        let flows = Corners::at(graph, &prices, &current);
        let groups = tie_groups(deeper, &prices, flows.gradient(&current));
        // Near ties are made exact when that does not raise g; where it would, the copies move apart.
        let (groups, flows) = if groups.iter().any(|g| g.iter().any(|&c| prices[c] != prices[g[0]]))
        {
            let mut snapped = prices.clone();
            snap(&groups, &mut snapped);
            if deadline.expired() {
                break;
            }
            let at = evaluate(graph, &snapped, amount_in, true);
            if at.value <= current.value {
                (prices, current) = (snapped, at);
                let flows = Corners::at(graph, &prices, &current);
                (tie_groups(deeper, &prices, flows.gradient(&current)), flows)
            } else {
                (groups.into_iter().flat_map(|g| g.into_iter().map(|c| vec![c])).collect(), flows)
            }
        } else {
            (groups, flows)
        };
        // Copies joined by a linear piece at its corner move together (`Corners::join`).
        let Joined { mut groups, gradient: joined, hinges } = flows.join(&current, &prices, groups);
        let corner_gradient = joined.as_deref().unwrap_or(&current.gradient);
        let mut system = System::of(&groups, &prices, corner_gradient, &current.hessian);
        let mut accepted = None;
        // The step taken to conserve flow, past a small decrement.
        let mut polished = false;
        // Each halving is an evaluation of g: the deadline is checked before each.
        while accepted.is_none() && damping < 1e12 && !deadline.expired() {
            let System { free, gradient, matrix, floor } = &system;
            let (m, floor) = (free.len(), *floor);
            let mut damped = matrix.clone();
            for a in 0..m {
                damped[entry(a, a, m)] +=
                    damping * matrix[entry(a, a, m)].max(floor) + floor * 1e-3;
            }
            let Some(factor) = cholesky(&damped, m) else {
                damping *= 10.0;
                continue;
            };
            let minus: Vec<f64> = gradient.iter().map(|g| -g).collect();
            let mut step = solve(&factor, m, &minus);
            // A trust region on the scaled prices: where g is flat (no venue trades near the
            // prices, so the Hessian is zero) the damped step is as long as the gradient over
            // the floor, and halving it forty times would still move prices by half their value.
            // Shortened whole, it keeps its direction and the line search can reach small moves.
            //
            // A flat price (no curvature: no venue trades near it, only a pooled venue's roundings'
            // allowance arriving, say) is clipped on its own, not by shortening the whole step:
            // its step is the gradient over the floor, far past MAX_MOVE, and shortening the
            // whole step to it scaled the curved prices' Newton steps by 10⁻⁷ (the embedded
            // market's USDbC→AERO 3-hop 0.01×: the solve crawled and stopped 88 bps high).
            let flat = |a: usize| matrix[entry(a, a, m)] <= floor;
            let curved = (0..m).filter(|&a| !flat(a)).fold(0.0f64, |l, a| l.max(step[a].abs()));
            let longest = match curved > 0.0 {
                true => curved,
                false => step.iter().fold(0.0f64, |m, s| m.max(s.abs())),
            };
            if longest > MAX_MOVE {
                step.iter_mut().for_each(|s| *s *= MAX_MOVE / longest);
            }
            (0..m).filter(|&a| flat(a)).for_each(|a| step[a] = step[a].clamp(-MAX_MOVE, MAX_MOVE));
            // A step across a linear budget's corner the join left apart: its hinge has no
            // curvature in Newton's model, so no length of the step lowers g (the budget's whole
            // pair against a few copies' excess). The two groups move as one instead, the
            // step is solved again.
            if let Some(joined) = join_crossed(&hinges, &groups, free, &step) {
                groups = joined;
                system = System::of(&groups, &prices, corner_gradient, &current.hessian);
                continue;
            }
            let slope: f64 = step.iter().zip(gradient.iter()).map(|(s, g)| s * g).sum();
            if !slope.is_finite() || slope >= 0.0 {
                break;
            }
            if -slope <= TOLERANCE * current.value.abs().max(f64::MIN_POSITIVE) {
                // A small decrement is not enough: on a corner of g (a linear piece's hinge) the
                // pieces' stand-in curvature makes it vanish with tokenIn's whole amount unsent
                // (docs/solver-optimizer.md, *The vault's linear side*). Newton cannot move
                // either way; the corners' passes below run unless flow is conserved.
                let off = imbalance(graph, deeper, &prices, &current);
                converged = off <= FLOW_TOLERANCE;
                // Where g's curvature is real (a deep pool, a small trade: 10⁶·g in the scaled
                // prices) the decrement is below its tolerance a step or two before the flow is
                // conserved. The full step is taken while it halves the imbalance and leaves g
                // where it was within its float room; on a corner's stand-in curvature it does
                // not, and the corners' passes below run.
                if !converged && !deadline.expired() {
                    let mut trial = prices.clone();
                    for (a, &k) in free.iter().enumerate() {
                        groups[k].0.iter().for_each(|&c| trial[c] = prices[c] * (1.0 + step[a]));
                    }
                    monotone(graph, &mut trial);
                    let next = evaluate(graph, &trial, amount_in, true);
                    let room = TOLERANCE * current.magnitude;
                    if next.value <= current.value + room
                        && imbalance(graph, deeper, &trial, &next) <= off / 2.0
                    {
                        accepted = Some((trial, next, 1.0));
                        polished = true;
                        break;
                    }
                }
                stopped = true;
                break;
            }
            let mut t = 1.0;
            for _ in 0..MAX_HALVINGS {
                if deadline.expired() {
                    break;
                }
                let mut trial = prices.clone();
                for (a, &k) in free.iter().enumerate() {
                    // Prices stay positive: a step moves one by at most half (MAX_MOVE).
                    groups[k].0.iter().for_each(|&c| trial[c] = prices[c] * (1.0 + t * step[a]));
                }
                // A free copy stepped below its next layer's: the tie is met, and kept next time
                // if the flow passes on.
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
        if stopped {
            break;
        }
        let Some((trial, next, t)) = accepted else { break };
        let gain = current.value - next.value;
        (prices, current) = (trial, next);
        damping = if t == 1.0 { (damping / 4.0).max(1e-12) } else { damping * 2.0 };
        // A step that gains nothing measurable twice in a row: Newton is on a corner; the exact
        // one-dimensional minimisations below take over.
        if gain <= 1e-15 * current.value.abs() && !polished {
            stalls = stalls.saturating_add(1);
            if stalls >= 2 {
                break;
            }
        } else {
            stalls = 0;
        }
    }
    // `current` is g at `prices` (with the Hessian, which nothing reads from here).
    let mut before_corners = None;
    if !converged && !deadline.expired() {
        // Corners: exact minimisation along each tie group in turn, from the last layer to
        // tokenIn; kept only if it lowers g.
        before_corners = Some(prices.clone());
        for _ in 0..3 {
            if deadline.expired() {
                break;
            }
            let mut groups =
                tie_groups(deeper, &prices, &evaluate(graph, &prices, amount_in, false).gradient);
            groups.sort_by_key(|g| std::cmp::Reverse(graph.copies[g[0]].layer));
            for group in &groups {
                if deadline.expired() {
                    break;
                }
                settle(
                    graph,
                    touching,
                    &mut prices,
                    group,
                    (group[0] == 0).then_some(amount_in),
                    deadline,
                );
                monotone(graph, &mut prices);
            }
        }
    }
    let evaluation = match before_corners {
        None => current,
        Some(before) => {
            let after = evaluate(graph, &prices, amount_in, false);
            match after.value > current.value {
                true => {
                    prices = before;
                    current
                }
                false => after,
            }
        }
    };
    // The corners' passes may have reached the optimum: the same test at the prices kept (not
    // past the deadline, which cut them short).
    if !converged && !deadline.expired() {
        converged = conserved(graph, deeper, &prices, &evaluation);
    }
    Dual { prices, evaluation, converged }
}

/// Per copy, the same token's copy one layer further, whose price [`monotone`] keeps at most its.
pub(super) fn deeper_copies(graph: &Graph) -> Vec<Option<usize>> {
    let copies = &graph.copies;
    (0..copies.len())
        .map(|c| {
            (0..copies.len()).find(|&d| {
                copies[d].token == copies[c].token
                    && copies[d].layer.checked_sub(1) == Some(copies[c].layer)
            })
        })
        .collect()
}

/// Copies of one token in consecutive layers priced alike (within [`NEAR`]) whose shallower
/// part passes flow on to the deeper (its summed excess, the pass-on, is ≥ 0): the *tie groups*,
/// each moved as one variable, shallowest copy first. This is the active set of the constraints
/// π_k ≥ π_{k+1} that keep the bound certified: at the optimum a token's flow reaches tokenOut
/// through its pools from whichever layer it arrived in, so its copies' prices are equal and g
/// has a kink there (a pool tenders from its cheapest copy). Moving the copies one by one, or all
/// copies freely and then raising the shallower ones, cannot cross that kink; moving the group as
/// one variable is smooth. A tie whose shallower part takes more than it receives (pass-on < 0)
/// is released: raising that part alone lowers g.
fn tie_groups(deeper: &[Option<usize>], prices: &[f64], gradient: &[f64]) -> Vec<Vec<usize>> {
    let mut shallower = vec![false; deeper.len()];
    deeper.iter().flatten().for_each(|&d| shallower[d] = true);
    let mut groups = Vec::new();
    for head in (0..deeper.len()).filter(|&c| !shallower[c]) {
        let mut group = vec![head];
        let mut passed = gradient[head];
        let mut at = head;
        while let Some(d) = deeper[at] {
            if !(prices[at] <= prices[d] * (1.0 + NEAR) && passed >= 0.0) {
                groups.push(std::mem::take(&mut group));
                passed = 0.0;
            }
            group.push(d);
            passed += gradient[d];
            at = d;
        }
        groups.push(group);
    }
    groups
}

/// Whether flow is conserved at `prices`: every tie group's excess (inflow minus outflow at the
/// venues' best trades, summed over its copies, tokenIn's inflow amountIn), valued at its copies'
/// prices, is within [`FLOW_TOLERANCE`] of g. That is g's slope along the group's scaled price, so
/// where it holds for every group no move of any one price lowers g by more than that fraction:
/// the first-order condition of the minimum, which Newton's decrement only approximates through
/// its model (on a linear piece's corner the model's stand-in curvature is huge and the decrement
/// vanishes with the slope still large). A stranded copy (flow left at a middle token, its price
/// driven towards 0) passes: its excess is positive and its price makes it worth nothing. Valued
/// at such a price, a copy that sends more than it receives would pass too (Newton, in prices
/// scaled by ones near 0, stops there: docs/solver-optimizer.md, *The certificate*), so a group
/// priced below [`DRIVEN`] of what its trades get for it ([`sold_at`]) must not be overdrawn by
/// more than the tolerance valued at that.
///
/// On a linear piece's corner the venue may trade anything along the piece at the same value of
/// g, so the test reads the flows the corner allows (`Corners`): copies joined by such a piece
/// count as one group, whose valued excess does not depend on how much the piece carries, and a
/// group pinned to tokenOut by one passes (the piece carries its excess).
fn conserved(graph: &Graph, deeper: &[Option<usize>], prices: &[f64], at: &Evaluation) -> bool {
    imbalance(graph, deeper, prices, at) <= FLOW_TOLERANCE
}

/// [`conserved`]'s measure: the largest valued excess of a group not pinned (a group driven
/// towards 0: its overdraft valued at what its trades get for it, if larger), as a fraction of |g|.
fn imbalance(graph: &Graph, deeper: &[Option<usize>], prices: &[f64], at: &Evaluation) -> f64 {
    let ceiling = sold_at(graph, prices, at);
    let flows = Corners::at(graph, prices, at);
    let ties = tie_groups(deeper, prices, flows.gradient(at));
    let Joined { groups, gradient, .. } = flows.join(at, prices, ties);
    let gradient = gradient.as_deref().unwrap_or(&at.gradient);
    let fraction = |off: f64| match off {
        off if off.is_nan() => f64::INFINITY,
        off if off <= 0.0 => 0.0,
        off => off / at.value.abs(),
    };
    groups.iter().filter(|(_, pinned)| !pinned).fold(0.0, |largest, (group, _)| {
        let worth: f64 = group.iter().map(|&c| prices[c] * gradient[c]).sum();
        let driven = group.iter().all(|&c| prices[c] < DRIVEN * ceiling[c]);
        let overdrawn = -group.iter().map(|&c| ceiling[c] * gradient[c]).sum::<f64>();
        let off = if driven { worth.abs().max(overdrawn) } else { worth.abs() };
        largest.max(fraction(off))
    })
}

/// Per copy, what the venues' trades at `at` get for each unit it sends: their output valued at
/// their heads' prices over their input, and its price where it sends nothing. A copy priced near
/// 0 and overdrawn drains the venues it tenders to, which pay for it what its heads are worth.
/// Its first unit's worth (the best zero-size rate on) is no such measure: a curve's rounding
/// allowance pays about a raw unit out for each of its first 64 raw units in (LUNARBASE's, a
/// WOOFi side's first piece), which priced cbETH's first unit at 1.1 raw USDC per wei, 3·10⁸ times
/// its worth, and held a converged solve (cbETH→USDC 2-hop $100, its tokenIn overdrawn by 10⁻¹¹
/// cbETH) unconverged.
fn sold_at(graph: &Graph, prices: &[f64], at: &Evaluation) -> Vec<f64> {
    let n = prices.len();
    let (mut sent, mut got) = (vec![0.0; n], vec![0.0; n]);
    for trade in at.trades.iter().flatten() {
        let arc = graph.arcs[trade.arc];
        sent[arc.from] += trade.response.input;
        got[arc.from] += trade.response.output * head_price(prices, arc.to);
    }
    (0..n)
        .map(|c| match sent[c] > 0.0 {
            true => (got[c] / sent[c]).max(prices[c]),
            false => prices[c],
        })
        .collect()
}

/// A venue side on a linear piece's corner: its tender's price is the piece's rate times its
/// head's (within [`NEAR`]), so the side may carry anything from the pieces before to the end of
/// this one at the same g (its conjugate is flat there).
struct Corner {
    tender: usize,
    receive: Head,
    /// The piece's input and output.
    input: f64,
    output: f64,
    /// A linear budget's pair (`Piece::Linear`), and whether it ties two deposits.
    linear: bool,
    tie: bool,
}

/// The venues' sides on a corner at some prices, and the gradient with each such side's flow
/// taken as the pieces before its corner only.
struct Corners {
    corners: Vec<Corner>,
    /// That gradient; None where no side is on a corner (the evaluation's gradient then).
    gradient: Option<Vec<f64>>,
}

impl Corners {
    /// At `prices`, where `at` was evaluated. Only piecewise-linear sides have corners whose
    /// flow jumps (a sampled venue's breakpoints, a vault's one piece, the families' bound
    /// curves), and a linear budget's pairs (`Piece::Linear`); a curved pooled venue's term is
    /// smooth. The evaluation booked those trades, so
    /// on a graph without one this is no work (it runs at every Newton iteration).
    fn at(graph: &Graph, prices: &[f64], at: &Evaluation) -> Corners {
        let mut gradient: Option<Vec<f64>> = None;
        let mut corners = Vec::new();
        for &Booked { tender, receive, response, piece } in &at.piecewise {
            let worth = head_price(prices, receive);
            if !(worth > 0.0 && prices[tender] > 0.0) {
                continue;
            }
            let rate = prices[tender] / worth;
            let (before, through) = (
                piece.respond(graph, rate * (1.0 + NEAR)),
                piece.respond(graph, rate * (1.0 - NEAR)),
            );
            let input = through.0 - before.0;
            // NaN: no corner either.
            if input.is_nan() || input <= 0.0 {
                continue;
            }
            let gradient = gradient.get_or_insert_with(|| at.gradient.clone());
            gradient[tender] += response.input - before.0;
            if let Head::Copy(d) = receive {
                gradient[d] -= response.output - before.1;
            }
            let (linear, tie) = match piece {
                Piece::Linear { tie, .. } => (true, tie),
                Piece::Side(_) => (false, false),
            };
            let output = through.1 - before.1;
            corners.push(Corner { tender, receive, input, output, linear, tie });
        }
        Corners { corners, gradient }
    }

    /// The gradient with the corners' flows taken as the pieces before them (`at`'s, where
    /// these corners were read, when there is none).
    fn gradient<'a>(&'a self, at: &'a Evaluation) -> &'a [f64] {
        self.gradient.as_deref().unwrap_or(&at.gradient)
    }

    /// `ties` joined by the corners whose piece carries part of what its tender has to send (its
    /// group's, the copies joined by the corners before: a chain of corners passes it on; its
    /// excess with the piece untaken between 0 and the piece's input): such a side holds its
    /// tender's price at the piece's rate times its head's, a hinge of g that Newton's model (the
    /// piece's stand-in curvature on one side of it) and moves of one price at a time cannot
    /// cross; moved together, the copies keep the ratio and the piece carries what balances them
    /// (docs/solver-optimizer.md, *The vault's linear side*). A side's corner whose tender has
    /// nothing to send is untaken (a linear budget's pair is joined at exactly 0 too, its ties
    /// read first), one whose tender has more than the piece takes is taken whole, and the
    /// copies move apart. Each group with whether a corner pins it to tokenOut's fixed price, and
    /// the gradient with the joining pieces' flows left out (they move no group's g: in a
    /// group's scaled price the piece's value is its input times rate·π_head − π_tender, 0 on
    /// the corner) and the others' flows as said (None: `at`'s gradient, as for [`Corners::gradient`]).
    fn join(self, at: &Evaluation, prices: &[f64], ties: Vec<Vec<usize>>) -> Joined {
        let Corners { mut corners, mut gradient } = self;
        // A linear budget's ties first: the deposits that may fund its withdrawals are one group
        // before any withdrawal is weighed against what that group has to send.
        corners.sort_by_key(|corner| !corner.tie);
        let n = at.gradient.len();
        let mut parent: Vec<usize> = (0..n).collect();
        for tie in &ties {
            tie.windows(2).for_each(|w| union(&mut parent, w[0], w[1]));
        }
        let mut pinned = vec![false; n];
        let mut hinges = Vec::new();
        // Corners::at made the gradient its own wherever it found a corner.
        if let Some(gradient) = gradient.as_mut() {
            for corner in &corners {
                // What the tender's group (the copies joined so far) has to send, in the tender's
                // units: a chain of corners (cbETH→cbBTC→USDC through one vault) carries it on,
                // though the middle copy alone has nothing to send with the pieces left out.
                let group = root(&mut parent, corner.tender);
                let valued: f64 = (0..n)
                    .filter(|&c| root(&mut parent, c) == group)
                    .map(|c| prices[c] * gradient[c])
                    .sum();
                let excess = valued / prices[corner.tender];
                // A linear budget's pair joins its tender with nothing to send too: the budget's
                // corners are one venue's, and a deposit left at exactly 0 by a withdrawal
                // untaken (USDC's copy funding cbETH's) is what carries the others' flow once
                // the group moves (docs/dex-kinds.md, WOOFI). A side's piece does not.
                let sends = excess > 0.0 || (corner.linear && excess >= 0.0);
                let (tender, receive) = (corner.tender, corner.receive);
                if sends && excess < corner.input {
                    match receive {
                        Head::Copy(d) => union(&mut parent, tender, d),
                        Head::Out => pinned[tender] = true,
                    }
                    continue;
                }
                let taken = excess >= corner.input;
                if taken {
                    gradient[tender] -= corner.input;
                    if let Head::Copy(d) = receive {
                        gradient[d] += corner.output;
                    }
                }
                if corner.linear {
                    hinges.push(Hinge { tender, receive, taken });
                }
            }
        }
        let mut groups: Vec<(Vec<usize>, bool)> = Vec::new();
        let mut slot = vec![usize::MAX; n];
        for (c, &pin) in pinned.iter().enumerate() {
            let r = root(&mut parent, c);
            if slot[r] == usize::MAX {
                slot[r] = groups.len();
                groups.push((Vec::new(), false));
            }
            groups[slot[r]].0.push(c);
            groups[slot[r]].1 |= pin;
        }
        Joined { groups, gradient, hinges }
    }
}

/// [`Corners::join`]'s groups, each with whether a corner pins it to tokenOut, and its gradient.
struct Joined {
    groups: Vec<(Vec<usize>, bool)>,
    /// None: the evaluation's gradient.
    gradient: Option<Vec<f64>>,
    /// The linear budget's corners left apart, each read untaken or taken whole.
    hinges: Vec<Hinge>,
}

/// A linear budget's pair on its corner whose copies [`Corners::join`] left apart: read untaken
/// (its tender's group has nothing to send: the corner's rate, the tender's price over the head's,
/// is the least at which the gradient holds) or taken whole (the most). The budget's term has no
/// curvature there, so Newton's model does not see the hinge ([`join_crossed`]).
struct Hinge {
    tender: usize,
    receive: Head,
    taken: bool,
}

/// `groups` with the two sides of every hinge that `step` (per free group, `free` their indices
/// in `groups`) moves across its corner joined (a side joined to tokenOut pinned), or None when the
/// step crosses none. Across an untaken hinge the tender's price falls against its head's and the
/// whole pair starts at once; across a taken one it rises and the pair stops: g's change is linear
/// in the step's length, so the line search cannot shorten it into a descent.
fn join_crossed(
    hinges: &[Hinge],
    groups: &[(Vec<usize>, bool)],
    free: &[usize],
    step: &[f64],
) -> Option<Vec<(Vec<usize>, bool)>> {
    let n = groups.iter().map(|(g, _)| g.len()).sum::<usize>();
    let mut group_of = vec![0; n];
    for (k, (group, _)) in groups.iter().enumerate() {
        group.iter().for_each(|&c| group_of[c] = k);
    }
    let mut moved = vec![0.0; groups.len()];
    free.iter().zip(step).for_each(|(&k, &s)| moved[k] = s);
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    let mut pinned: Vec<bool> = groups.iter().map(|(_, pin)| *pin).collect();
    let mut crossed = false;
    for hinge in hinges {
        let t = group_of[hinge.tender];
        let head = match hinge.receive {
            Head::Copy(d) => Some(group_of[d]),
            Head::Out => None,
        };
        if head == Some(t) {
            continue;
        }
        let rises = moved[t] - head.map_or(0.0, |h| moved[h]);
        if (hinge.taken && rises > 0.0) || (!hinge.taken && rises < 0.0) {
            crossed = true;
            match head {
                Some(h) => union(&mut parent, t, h),
                None => pinned[t] = true,
            }
        }
    }
    if !crossed {
        return None;
    }
    let mut merged: Vec<(Vec<usize>, bool)> = Vec::new();
    let mut slot = vec![usize::MAX; groups.len()];
    for (k, (group, _)) in groups.iter().enumerate() {
        let r = root(&mut parent, k);
        if slot[r] == usize::MAX {
            slot[r] = merged.len();
            merged.push((Vec::new(), false));
        }
        merged[slot[r]].0.extend(group);
        merged[slot[r]].1 |= pinned[k];
    }
    Some(merged)
}

/// Newton's system over the free groups (neither pinned nor priced at 0), each scaling its copies'
/// prices by one factor p (π = p·π_now, every variable near 1): tied copies keep their common
/// price, copies joined at a corner their piece's ratio. A group's gradient and Hessian in p are
/// its copies' in π, weighted by their prices and summed.
struct System {
    /// The free groups' indices in the groups.
    free: Vec<usize>,
    gradient: Vec<f64>,
    /// Row-major, free × free.
    matrix: Vec<f64>,
    /// The curvature below which a group counts as flat (10⁻¹² of the largest; 1 if none).
    floor: f64,
}

impl System {
    fn of(
        groups: &[(Vec<usize>, bool)],
        prices: &[f64],
        gradient: &[f64],
        hessian: &[f64],
    ) -> System {
        let n = prices.len();
        let free: Vec<usize> =
            (0..groups.len()).filter(|&k| !groups[k].1 && prices[groups[k].0[0]] > 0.0).collect();
        let m = free.len();
        let group = |a: usize| &groups[free[a]].0;
        let gradient: Vec<f64> =
            (0..m).map(|a| group(a).iter().map(|&c| prices[c] * gradient[c]).sum()).collect();
        let mut matrix = vec![0.0; m.saturating_mul(m)];
        for a in 0..m {
            for b in 0..m {
                matrix[entry(a, b, m)] = group(a)
                    .iter()
                    .flat_map(|&c| group(b).iter().map(move |&d| (c, d)))
                    .map(|(c, d)| prices[c] * prices[d] * hessian[entry(c, d, n)])
                    .sum();
            }
        }
        let largest = (0..m).map(|a| matrix[entry(a, a, m)]).fold(0.0f64, f64::max);
        let floor = if largest > 0.0 { largest * 1e-12 } else { 1.0 };
        System { free, gradient, matrix, floor }
    }
}

/// The root of `c`'s set in the union-find forest `parent` (paths halved on the way).
fn root(parent: &mut [usize], mut c: usize) -> usize {
    while parent[c] != c {
        parent[c] = parent[parent[c]];
        c = parent[c];
    }
    c
}

/// Joins the sets of `a` and `b` (the lower root stays the root).
fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    parent[ra.max(rb)] = ra.min(rb);
}

/// Prices every group's copies as its shallowest.
fn snap(groups: &[Vec<usize>], prices: &mut [f64]) {
    for group in groups {
        let price = prices[group[0]];
        group.iter().for_each(|&c| prices[c] = price);
    }
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
            for c in [Some(arc.from), if let Head::Copy(c) = arc.to { Some(c) } else { None }]
                .into_iter()
                .flatten()
            {
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
fn excess(
    graph: &Graph,
    touching: &[Vec<usize>],
    prices: &[f64],
    c: usize,
    inflow: Option<f64>,
) -> f64 {
    let mut total = inflow.unwrap_or(0.0);
    for &v in &touching[c] {
        if let Some(pooled) = &graph.venues[v].pooled {
            pooled_term(pooled, prices).flows(|head, flow| {
                if head == Head::Copy(c) && (flow < 0.0 || inflow.is_none()) {
                    total += flow;
                }
            });
            continue;
        }
        if let Some(term) = venue_term(graph, v, prices) {
            if term.tender == c {
                total -= term.trade.response.input;
            }
            if inflow.is_none() {
                total += term.received_at(Head::Copy(c));
            }
        }
    }
    total
}

/// Sets the price of `group` (copies priced alike) where its summed excess changes sign, the
/// others fixed: with the inflow computed, the minimiser of g along that price; with it held at
/// `inflow` (one copy), the price at which the copy sends exactly that on. The excess rises with
/// the price either way (g is convex), so a bracket and bisection find it. Past `deadline`
/// (checked before each excess) the group keeps its price.
fn settle(
    graph: &Graph,
    touching: &[Vec<usize>],
    prices: &mut [f64],
    group: &[usize],
    inflow: Option<f64>,
    deadline: &Deadline,
) {
    let start = prices[group[0]];
    if start.is_nan() || start <= 0.0 {
        return;
    }
    // The group's summed excess at price p; None past the deadline.
    let at = |prices: &mut [f64], p: f64| {
        if deadline.expired() {
            return None;
        }
        group.iter().for_each(|&c| prices[c] = p);
        Some(group.iter().map(|&c| excess(graph, touching, prices, c, inflow)).sum::<f64>())
    };
    let settled = bracket_and_bisect(start, |p| at(prices, p)).unwrap_or(start);
    group.iter().for_each(|&c| prices[c] = settled);
}

#[cfg(test)]
#[path = "solve_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "solve_vault_diagnosis.rs"]
mod vault_diagnosis;
