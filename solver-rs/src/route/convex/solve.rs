//! Minimising the dual g over prices: a damped Newton method on all copies at once, started from
//! the prices of the first unit (every copy worth its best zero-size rate to tokenOut) with
//! every copy's price first settled by one-dimensional searches, and one-dimensional exact minimisations
//! per copy where Newton stalls on a corner (sampled venues and empty tick ranges make g
//! piecewise smooth). Copies a linear piece joins at its corner move as one Newton variable
//! ([`Corners`], `corners.rs`); where the line search crawls, it also tries the step lengths that
//! land on a linear budget's corners (`solve_corner_steps.rs`). The solve counts as converged only
//! where flow is conserved ([`conserved`], `conservation.rs`).
//!
//! Any prices give a certified bound (`certificate.rs`), so the solve may stop anywhere: the
//! deadline is checked before every evaluation of g or of a copy's excess (each a pass over some
//! of the graph's venues), in the warm start's searches, Newton's line search and the corners'
//! minimisations alike, and the best prices so far are kept.

use super::conservation::{conserved, imbalance, FLOW_TOLERANCE};
use super::corners::{join_crossed, Corners, Joined};
use super::curve::MAX_SWAPS_PER_POOL;
use super::dual::{
    evaluate, head_price, monotone, pooled_flows_at, pooled_term, venue_term, Evaluation, VenueTerm,
};
use super::enough::Floor;
use super::graph::{Arc, Graph, Head};
use super::newton_system::System;
use super::sign_change::bracket_and_bisect;
use super::solve_tally::{tally, Step};
use super::ties::{deeper_copies, locked_links, snap, tie_groups};
use crate::route::clock::{Deadline, Stretch};
use crate::route::linear::{cholesky, entry, solve};
use corner_steps::corner_lengths;

/// Newton iterations at most.
const MAX_ITERATIONS: usize = 80;
/// Converged when Newton's decrement is below this fraction of g.
const TOLERANCE: f64 = 1e-14;
/// Halvings of a Newton step before its damping is raised.
const MAX_HALVINGS: usize = 40;
/// Sweeps of one-dimensional minimisations before Newton starts.
const WARM_SWEEPS: usize = 3;
/// A line search's length below which it crawls: the step's linear budget corners are tried too.
const CRAWL: f64 = 1.0 / 64.0;
/// The most a Newton step moves one scaled price (a price by half its value), before the line search.
const MAX_MOVE: f64 = 0.5;

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
    minimise_above(graph, amount_in, Floor::NONE, deadline)
}

/// [`minimise`], stopped once g has reached `floor` (`enough.rs`): the warm start's sweeps once
/// one's g has, Newton once a step's has.
fn minimise_above(graph: &Graph, amount_in: f64, floor: Floor, deadline: &Deadline) -> Dual {
    tally(Step::Minimise);
    let n = graph.copies.len();
    let touching = touching_venues(graph);
    let sending = sending_venues(graph, &touching);
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
        tally(Step::Sweep);
        let mut inflow = vec![0.0; n];
        inflow[0] = amount_in;
        for layer in 0..=top {
            for c in (0..n).filter(|&c| graph.copies[c].layer == layer) {
                let sends = inflow[c].max(past_allowances(&touching[c]));
                // With its inflow held, a copy's excess reads only the venues it may send to.
                settle(graph, &sending, &mut prices, &[c], Some(sends), deadline);
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
                // A venue tenders from one of its arcs' copies and delivers to one of their heads:
                // none in this layer or none a copy, no inflow from it (its term is not computed).
                let arcs = graph.venues[v].arcs.iter().map(|&a| graph.arcs[a]);
                let from_layer = |arc: Arc| graph.copies[arc.from].layer == layer;
                let to_copy = |arc: Arc| matches!(arc.to, Head::Copy(_));
                if !(arcs.clone().any(from_layer) && arcs.clone().any(to_copy)) {
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
        if floor.reached(value) {
            break;
        }
    }
    // A sweep the deadline cut short left its prices unraised (idempotent otherwise); its g is
    // not known, so the lowest g evaluated is kept over it.
    monotone(graph, &mut prices);
    if let Some((_, lowest)) = best {
        prices = lowest;
    }
    descend(graph, &touching, &deeper, prices, amount_in, (floor, deadline))
}

/// [`minimise`] in two phases where `sides` is given (`graph`'s scope with its joint-budget venues
/// priced per side, the same copies: `graph_sides.rs`): g minimised on `sides`, then Newton on
/// `graph` from the prices reached there instead of from the warm start. From the warm start the
/// joint solve stopped at 38.8 times the plan on cbETH→cbBTC 2-hop 1× (today's fixture), from the
/// per-side end it converged at 1.000 (docs/dex-kinds.md, WOOFI). Where that stops unconverged the
/// warm start on `graph` runs too and the converged, else the lower, of the two is kept (USDC→BRETT
/// 3-hop 0.01× on the old fixture converges only from the warm start). The deadline covers all.
pub fn minimise_with(
    graph: &Graph,
    sides: Option<&Graph>,
    amount_in: f64,
    deadline: &Deadline,
) -> Dual {
    minimise_two_phase(graph, sides, amount_in, deadline).0
}

/// [`minimise_with`], and the prices its first phase reached on `sides` (None without it): the
/// per-side graph's own certificate is taken there (`certificate::least_certified`) without
/// solving it again.
pub fn minimise_two_phase(
    graph: &Graph,
    sides: Option<&Graph>,
    amount_in: f64,
    deadline: &Deadline,
) -> (Dual, Option<Vec<f64>>) {
    minimise_two_phase_above(graph, sides, amount_in, Floor::NONE, deadline)
}

/// [`minimise_two_phase`], each phase stopped once its g has reached `floor` (`enough.rs`), and
/// the phases after it not run: where the per-side solve has, the joint graph's prices are its
/// (both certify, the certificate takes the least), and where Newton from there has, the warm
/// start on the joint graph, which could lower g by less than `floor` leaves, is not run.
pub fn minimise_two_phase_above(
    graph: &Graph,
    sides: Option<&Graph>,
    amount_in: f64,
    floor: Floor,
    deadline: &Deadline,
) -> (Dual, Option<Vec<f64>>) {
    let Some(sides) = sides else {
        return (minimise_above(graph, amount_in, floor, deadline), None);
    };
    let apart = minimise_above(sides, amount_in, floor, deadline);
    let start = apart.prices;
    if floor.reached(apart.evaluation.value) {
        let mut prices = start.clone();
        monotone(graph, &mut prices);
        let evaluation = evaluate(graph, &prices, amount_in, false);
        return (Dual { prices, evaluation, converged: false }, Some(start));
    }
    let (touching, deeper) = (touching_venues(graph), deeper_copies(graph));
    let from_sides =
        descend(graph, &touching, &deeper, start.clone(), amount_in, (floor, deadline));
    if from_sides.converged || floor.reached(from_sides.evaluation.value) || deadline.expired() {
        return (from_sides, Some(start));
    }
    tally(Step::Fallback);
    let warm = minimise_above(graph, amount_in, floor, deadline);
    let rank = |d: &Dual| (!d.converged, d.evaluation.value);
    match rank(&warm).partial_cmp(&rank(&from_sides)) {
        Some(std::cmp::Ordering::Less) => (warm, Some(start)),
        _ => (from_sides, Some(start)),
    }
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
    descend(graph, &touching, &deeper, prices, amount_in, (Floor::NONE, deadline))
}

/// Newton from `prices`, then the corners' minimisations where it stalls; neither once g has
/// reached `floor` (`enough.rs`).
fn descend(
    graph: &Graph,
    touching: &[Vec<usize>],
    deeper: &[Option<usize>],
    mut prices: Vec<f64>,
    amount_in: f64,
    (floor, deadline): (Floor, &Deadline),
) -> Dual {
    let locked = locked_links(graph, deeper);
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
        if deadline.expired() || floor.reached(current.value) {
            break;
        }
        tally(Step::Newton);
        let flows = Corners::at(graph, &prices, &current);
        let groups = tie_groups(deeper, &locked, &prices, flows.gradient(&current));
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
                (tie_groups(deeper, &locked, &prices, flows.gradient(&current)), flows)
            } else {
                (groups.into_iter().flat_map(|g| g.into_iter().map(|c| vec![c])).collect(), flows)
            }
        } else {
            (groups, flows)
        };
        // Copies joined by a linear piece at its corner move together (`Corners::join`).
        let Joined { mut groups, gradient: joined, hinges, .. } =
            flows.join(&current, &prices, groups, &locked);
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
            // A Newton system runs unchecked: the deadline is checked between them.
            let stretch = Stretch::begin();
            let Some(factor) = cholesky(&damped, m) else {
                tally(Step::Damping);
                damping *= 10.0;
                continue;
            };
            let minus: Vec<f64> = gradient.iter().map(|g| -g).collect();
            let mut step = solve(&factor, m, &minus);
            drop(stretch);
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
                    let trial = stepped(graph, &prices, (&groups, free), &step, 1.0);
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
                tally(Step::Halving);
                let trial = stepped(graph, &prices, (&groups, free), &step, t);
                let next = evaluate(graph, &trial, amount_in, true);
                if next.value <= current.value + 1e-4 * t * slope {
                    accepted = Some((trial, next, t));
                    break;
                }
                t *= 0.5;
            }
            // A linear budget's corner along the step: g is linear up to it and rises past it, so
            // the corner is where the step gains most, and landing on it lets the join move its
            // copies as one at the next iteration (`solve_corner_steps.rs`). Tried where the
            // halvings crawl (none accepted, or one shorter than CRAWL).
            let crawls = accepted.as_ref().is_none_or(|(_, _, t)| *t < CRAWL);
            let corners = match crawls {
                true => corner_lengths(&current, &prices, &groups, free, &step),
                false => Vec::new(),
            };
            for t in corners {
                if deadline.expired() {
                    break;
                }
                tally(Step::CornerLength);
                let trial = stepped(graph, &prices, (&groups, free), &step, t);
                let next = evaluate(graph, &trial, amount_in, true);
                let best = accepted.as_ref().map_or(current.value, |(_, at, _)| at.value);
                if next.value <= current.value + 1e-4 * t * slope && next.value < best {
                    accepted = Some((trial, next, t));
                }
            }
            if accepted.is_none() {
                tally(Step::Damping);
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
    if !converged && !deadline.expired() && !floor.reached(current.value) {
        // Corners: exact minimisation along each tie group in turn, from the last layer to
        // tokenIn; kept only if it lowers g.
        before_corners = Some(prices.clone());
        for _ in 0..3 {
            if deadline.expired() {
                break;
            }
            tally(Step::CornersPass);
            let mut groups = tie_groups(
                deeper,
                &locked,
                &prices,
                &evaluate(graph, &prices, amount_in, false).gradient,
            );
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

/// `prices` moved `t` along `step` (one entry per free group of `groups`, `free` their indices: a
/// group's prices to p·(1 + t·s), positive since a step moves one by at most half, `MAX_MOVE`),
/// then made monotone: a free copy stepped below its next layer's meets the tie, kept next time if
/// the flow passes on.
fn stepped(
    graph: &Graph,
    prices: &[f64],
    (groups, free): (&[(Vec<usize>, bool)], &[usize]),
    step: &[f64],
    t: f64,
) -> Vec<f64> {
    let mut trial = prices.to_vec();
    for (a, &k) in free.iter().enumerate() {
        groups[k].0.iter().for_each(|&c| trial[c] = prices[c] * (1.0 + t * step[a]));
    }
    monotone(graph, &mut trial);
    trial
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

/// What a copy settled in the warm start sends at least (raw units): past the rounding
/// allowances of the venues it touches, each spread on a curve's first `MAX_SWAPS_PER_POOL` raw
/// units in at about a raw unit out each (LUNARBASE's, `pools/lunarbase/bound.rs`). Settled to
/// send nothing, a copy that receives nothing in a sweep was priced at that first rate, up to 10⁸
/// times its worth (USDC after one hop at 1.84·10¹¹ wei of cbETH per raw unit against 3.1·10⁸),
/// and the next sweep priced the copies that tender to it for it: the sweeps alternated between two
/// states 3·10⁸ and 2·10¹³ times the plan (wstETH→cbETH 3-hop $100, docs/dex-kinds.md, WOOFI).
fn past_allowances(touching: &[usize]) -> f64 {
    let venues = u32::try_from(touching.len()).unwrap_or(u32::MAX);
    f64::from(MAX_SWAPS_PER_POOL) * f64::from(venues) + 1.0
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

/// Per copy, the venues of `touching` it may send to: those with an arc from it (a pooled venue
/// tenders a coin only from one of its arcs' copies, `graph.rs`). A copy's excess with its inflow
/// held fixed reads only what the copy tenders, so [`excess`] over these gives the same sum, term
/// by term, as over all of `touching`.
fn sending_venues(graph: &Graph, touching: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let sends = |c: usize, v: usize| graph.venues[v].arcs.iter().any(|&a| graph.arcs[a].from == c);
    let keep = |(c, venues): (usize, &Vec<usize>)| -> Vec<usize> {
        venues.iter().copied().filter(|&v| sends(c, v)).collect()
    };
    touching.iter().enumerate().map(keep).collect()
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
    tally(Step::Excess);
    let mut total = inflow.unwrap_or(0.0);
    for &v in &touching[c] {
        if let Some(pooled) = &graph.venues[v].pooled {
            // A venue whose trade neither tenders from c nor (the inflow computed) delivers to c
            // adds nothing, and its joint term is not computed (a sixth of the pooled terms of
            // the embedded market's 1 WETH → USDC, docs/solver-optimizer.md, *The embedded
            // market's bound*).
            if !pooled_flows_at(pooled, prices, c, inflow.is_some()) {
                continue;
            }
            pooled_term(pooled, prices).flows(|head, flow| {
                if head == Head::Copy(c) && (flow < 0.0 || inflow.is_none()) {
                    total += flow;
                }
            });
            continue;
        }
        // Held, only what c tenders counts: a venue of one arc's term is that arc's trade.
        if let (Some(_), &[only]) = (inflow, graph.venues[v].arcs.as_slice()) {
            if let Some(input) = lone_input(graph, only, c, prices) {
                total -= input;
            }
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

/// What the venue whose one arc is `arc` takes from copy `c` at `prices` (raw units): its side's
/// response at the arc's rate, the input [`venue_term`] books for it (None where that books no
/// trade from c: the arc tenders from another copy, or its head's price is not positive), without
/// its search over sides and arcs (one side, one tender, one head).
fn lone_input(graph: &Graph, arc: usize, c: usize, prices: &[f64]) -> Option<f64> {
    let arc = graph.arcs[arc];
    let p_receive = head_price(prices, arc.to);
    if arc.from != c || p_receive.is_nan() || p_receive <= 0.0 {
        return None;
    }
    Some(graph.sides[arc.side].curve.respond(prices[c] / p_receive).input)
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
    tally(Step::Settle);
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

#[path = "solve_corner_steps.rs"]
mod corner_steps;

#[cfg(test)]
#[path = "solve_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "solve_excess_tests.rs"]
mod excess_tests;

#[cfg(test)]
#[path = "solve_vault_diagnosis.rs"]
mod vault_diagnosis;

#[cfg(test)]
#[path = "solve_tally_diagnosis.rs"]
mod tally_diagnosis;
