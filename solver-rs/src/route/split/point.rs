//! One exact evaluation of an allocation, and the derivatives the Newton step works from.
//!
//! The value is exact: the routes that carry input run in execution order on one overlay, so a
//! pool shared by two routes is seen by the second as the first left it. The derivatives are a
//! model: a swap's output depends (to rounding and fee compounding) only on the total that has
//! gone through each pool, so the output's derivative along a route is the product of its pools'
//! marginal rates at their final states, and its curvature comes from how each pool's marginal
//! rate falls as more goes through it (measured with one probe swap per pool and direction).

use super::start::Ran;
use super::Problem;
use crate::market::{Hop, PoolIdx};
use crate::math::U256;
use crate::pools::PoolModel;
use crate::route::gas_cap::total_gas;
use crate::route::linear::entry;
use crate::route::net::Net;
use crate::route::path::{run_hops, Overlay};
use std::sync::Arc;

/// The exact value of an allocation, with its derivatives when they were asked for.
#[derive(Clone, Debug)]
pub(super) struct Point {
    pub(super) alloc: Vec<U256>,
    /// Output of the routes that carry input, and their gas in tokenOut.
    pub(super) value: Net,
    /// Gas units per candidate (0 for those that carry nothing).
    pub(super) gas_units: Vec<u64>,
    pub(super) derivatives: Option<Derivatives>,
}

/// First and second derivatives of the gross output in the allocation, in raw units (tokenOut per
/// tokenIn, and per tokenIn squared). Every candidate has a gradient, open or not.
#[derive(Clone, Debug)]
pub(super) struct Derivatives {
    pub(super) gradient: Vec<f64>,
    /// Row-major n × n; shared, not copied, by the points and models made from it (at 10,000
    /// pools a 2-hop split has about 170 candidates: 230 kB, which copying for every model and
    /// every trial's start was most of the pruning's allocator time).
    pub(super) hessian: Arc<[f64]>,
    /// Whether every entry stays finite in the model's units (times amountIn²).
    pub(super) hessian_finite: bool,
    /// Per pool that could not take a probe more than its flow (drained to the end of its
    /// liquidity): how much of a unit of each candidate's input reaches it. Its flow may fall,
    /// not rise.
    pub(super) limits: Vec<Vec<f64>>,
    /// The pool and direction of each of `limits`.
    pub(super) limited: Vec<(PoolIdx, u8)>,
}

impl Point {
    pub(super) fn gross(&self) -> U256 {
        self.value.gross
    }

    pub(super) fn open(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.alloc.len()).filter(|&i| !self.alloc[i].is_zero())
    }

    pub(super) fn open_count(&self) -> usize {
        self.open().count()
    }

    pub(super) fn gas_total(&self) -> u64 {
        total_gas(self.gas_units.iter().copied())
    }

    /// The transaction gas of this allocation, as the gas cap counts it.
    pub(super) fn plan_gas(&self, problem: &Problem) -> u64 {
        let (legs, routes) = open_legs_and_routes(problem, &self.alloc);
        problem.gas_cap.plan_gas(self.gas_total(), legs, routes)
    }
}

/// One pool in one direction, as the routes of an evaluation use it.
struct PoolUse {
    pool: PoolIdx,
    token_in: u8,
    /// Total input that went through it, raw units of its input token.
    flow: f64,
    /// Marginal rate at the final state, and its derivative in the input amount.
    rate: f64,
    curvature: f64,
    /// The probe swap failed: the pool cannot take more in this direction.
    saturated: bool,
}

/// Probe swaps measure curvature over this fraction of a pool's flow (or, for a pool no route
/// uses yet, of an even share of the amount): small, so the slope is the local one even for a pool
/// that the share would drain. A pool that cannot take it is at its limit: ten times the backoff a
/// step takes from such a pool (`newton.rs`), so a pool a step held stays held.
const PROBE_FRACTION: f64 = 1e-5;

/// Evaluates `alloc` with the routes run in `order`; None if a route cannot take its amount, the
/// outputs sum past 2^256 − 1, or the deadline passed before a route or a probe swap.
pub(super) fn evaluate(
    problem: &Problem,
    order: &[usize],
    alloc: Vec<U256>,
    with_derivatives: bool,
) -> Option<Point> {
    evaluate_or_blame(problem, order, alloc, with_derivatives).ok()
}

/// Why an allocation could not be evaluated: the hop whose pool could not take what reached it
/// (a pool the allocation drains past its liquidity), or None for outputs past 2^256 − 1 and for
/// plans of several routes whose transaction would outgrow the gas cap (`route/gas_cap.rs`).
pub(super) type Infeasible = Option<Hop>;

/// [`evaluate`], naming the hop that made the allocation infeasible.
pub(super) fn evaluate_or_blame(
    problem: &Problem,
    order: &[usize],
    alloc: Vec<U256>,
    with_derivatives: bool,
) -> Result<Point, Infeasible> {
    evaluate_within(problem, order, alloc, with_derivatives, true)
}

/// The evaluation; with `interruptible`, given up (`Err(None)`) once the deadline has passed,
/// checked before each route and each probe swap.
fn evaluate_within(
    problem: &Problem,
    order: &[usize],
    alloc: Vec<U256>,
    with_derivatives: bool,
    interruptible: bool,
) -> Result<Point, Infeasible> {
    let replayed = replay(problem, order, alloc, with_derivatives, interruptible)?;
    match with_derivatives {
        true => replayed.with_derivatives(problem, interruptible),
        false => Ok(replayed.without_derivatives()),
    }
}

/// An allocation replayed and valued, its derivatives not computed yet: the optimizer's start
/// values two allocations (the best single path and the proposed start) and steps from the better
/// one only, so only that one's derivatives (a probe swap per pool of every candidate, and the
/// n × n curvature matrix) are computed ([`Replayed::with_derivatives`]: the same numbers as an
/// evaluation with derivatives, to the bit, since they are computed from the same view).
pub(super) struct Replayed<'p> {
    alloc: Vec<U256>,
    value: Net,
    gas_units: Vec<u64>,
    /// The view after every route ran, and the pools its routes used (with their flows).
    overlay: Overlay<'p>,
    uses: Vec<PoolUse>,
}

impl<'p> Replayed<'p> {
    /// `alloc` valued from `ran`, the replay that found it executable as it is (`start.rs`):
    /// what [`replay`] with `for_derivatives` would give, the same routes run in the same order on
    /// a fresh view, without running them again.
    pub(super) fn of_run(
        problem: &Problem,
        alloc: Vec<U256>,
        ran: Ran<'p>,
    ) -> Result<Replayed<'p>, Infeasible> {
        let mut uses: Vec<PoolUse> = Vec::with_capacity(
            problem.paths.iter().fold(0usize, |sum, p| sum.saturating_add(p.hops.len())),
        );
        for fill in &ran.fills {
            let index = use_index(&mut uses, fill.hop.pool, fill.hop.token_in);
            uses[index].flow += f64::from(fill.amount_in);
        }
        let gross = ran.gross.ok_or(None)?;
        valued(problem, alloc, gross, ran.gas_units, ran.overlay, uses)
    }

    /// Its value.
    pub(super) fn value(&self) -> Net {
        self.value
    }

    /// The point, with no derivatives.
    pub(super) fn without_derivatives(self) -> Point {
        Point { alloc: self.alloc, value: self.value, gas_units: self.gas_units, derivatives: None }
    }

    /// The point with its derivatives; with `interruptible`, given up (`Err(None)`) once the
    /// deadline has passed (checked before each probe swap), else without derivatives past it.
    pub(super) fn with_derivatives(
        mut self,
        problem: &Problem,
        interruptible: bool,
    ) -> Result<Point, Infeasible> {
        // Past the deadline an interruptible evaluation is dropped; the start keeps its value and
        // goes without derivatives (nothing will step from it).
        let derivatives =
            match derivatives(problem, &self.overlay, &mut self.uses, &|| problem.budget.expired())
            {
                None if interruptible => return Err(None),
                found => found,
            };
        Ok(Point { derivatives, ..self.without_derivatives() })
    }
}

/// The routes of `alloc` run in `order` on one view, and the plan's gas checked against the cap;
/// with `interruptible`, given up (`Err(None)`) once the deadline has passed (checked before each
/// route). With `for_derivatives`, the pools the routes use are gathered for them.
pub(super) fn replay<'p>(
    problem: &'p Problem,
    order: &[usize],
    alloc: Vec<U256>,
    for_derivatives: bool,
    interruptible: bool,
) -> Result<Replayed<'p>, Infeasible> {
    let late = || interruptible && problem.budget.expired();
    let market = problem.market;
    let n = problem.paths.len();
    let mut overlay = Overlay::memoized(market, problem.memos);
    let mut gross = U256::ZERO;
    let mut gas_units = vec![0u64; n];
    // With derivatives every candidate's hops join it: room for all of them at once.
    let mut uses: Vec<PoolUse> = match for_derivatives {
        true => Vec::with_capacity(
            problem.paths.iter().fold(0usize, |sum, p| sum.saturating_add(p.hops.len())),
        ),
        false => Vec::new(),
    };
    for &i in order {
        if alloc[i].is_zero() {
            continue;
        }
        if late() {
            return Err(None);
        }
        let (amount, gas) = run_hops(&problem.paths[i].hops, alloc[i], |hop, amount| {
            if for_derivatives {
                let index = use_index(&mut uses, hop.pool, hop.token_in);
                uses[index].flow += f64::from(amount);
            }
            let (outcome, gas) = overlay.swap(hop, amount).map_err(|_| Some(hop))?;
            Ok::<_, Option<Hop>>((outcome.amount_out, gas))
        })?;
        gas_units[i] = gas_units[i].saturating_add(gas);
        // Outputs summing past 2^256 − 1 cannot be paid (and would wrap): not a feasible allocation.
        gross = gross.checked_add(amount).ok_or(None)?;
    }
    valued(problem, alloc, gross, gas_units, overlay, uses)
}

/// The replayed allocation's value, once its plan's gas is within the cap (else infeasible).
fn valued<'p>(
    problem: &Problem,
    alloc: Vec<U256>,
    gross: U256,
    gas_units: Vec<u64>,
    overlay: Overlay<'p>,
    uses: Vec<PoolUse>,
) -> Result<Replayed<'p>, Infeasible> {
    let legs_gas = total_gas(gas_units.iter().copied());
    let (legs, routes) = open_legs_and_routes(problem, &alloc);
    if !problem.gas_cap.admits(legs_gas, legs, routes) {
        return Err(None);
    }
    let cost = problem.pricer.cost(legs_gas);
    problem.budget.saw(gross);
    Ok(Replayed { alloc, value: Net::new(gross, cost), gas_units, overlay, uses })
}

/// The legs and routes of `alloc`'s open routes.
pub(super) fn open_legs_and_routes(problem: &Problem, alloc: &[U256]) -> (usize, usize) {
    (0..alloc.len()).filter(|&i| !alloc[i].is_zero()).fold((0usize, 0usize), |(legs, routes), i| {
        (legs.saturating_add(problem.paths[i].hops.len()), routes.saturating_add(1))
    })
}

/// The index of the pool-and-direction entry in `uses`, added if it is new.
fn use_index(uses: &mut Vec<PoolUse>, pool: PoolIdx, token_in: u8) -> usize {
    uses.iter().position(|u| u.pool == pool && u.token_in == token_in).unwrap_or_else(|| {
        uses.push(PoolUse {
            pool,
            token_in,
            flow: 0.0,
            rate: f64::NAN,
            curvature: 0.0,
            saturated: false,
        });
        uses.len().saturating_sub(1)
    })
}

/// None once `late` says the deadline passed (checked before each probe swap).
fn derivatives(
    problem: &Problem,
    overlay: &Overlay,
    uses: &mut Vec<PoolUse>,
    late: &dyn Fn() -> bool,
) -> Option<Derivatives> {
    let paths = problem.paths;
    let n = paths.len();
    let typical_share = f64::from(problem.amount_in) / n as f64;
    // Per candidate and hop, in one list (candidate j's hops at `starts[j]..starts[j + 1]`): the
    // pool use it goes through, and the marginal rate of the hops before it (how much of a unit of
    // tokenIn reaches that hop). Two vectors per candidate, and one per pool use below, were most
    // of an evaluation's allocations, in glibc's slow path at 10,000 pools.
    let hops_total = paths.iter().fold(0usize, |sum, p| sum.saturating_add(p.hops.len()));
    let mut hop_uses: Vec<usize> = Vec::with_capacity(hops_total);
    let mut upstream: Vec<f64> = Vec::with_capacity(hops_total);
    let mut starts: Vec<usize> = Vec::with_capacity(n.saturating_add(1));
    starts.push(0);
    for path in paths {
        let mut carried = 1.0;
        for hop in &path.hops {
            let index = use_index(uses, hop.pool, hop.token_in);
            let entry = &mut uses[index];
            if entry.rate.is_nan() {
                if late() {
                    return None;
                }
                let scale = if entry.flow > 0.0 { entry.flow } else { typical_share * carried };
                (entry.rate, entry.curvature, entry.saturated) =
                    rate_and_curvature(problem, overlay, *hop, scale);
            }
            hop_uses.push(index);
            upstream.push(carried);
            carried *= uses[index].rate;
        }
        starts.push(hop_uses.len());
    }
    let hops_of = |j: usize| starts[j]..starts[j.saturating_add(1)];
    let gradient: Vec<f64> =
        (0..n).map(|j| hop_uses[hops_of(j)].iter().map(|&u| uses[u].rate).product()).collect();
    let through = Through::of(&hop_uses, &upstream, &starts, uses.len());
    // ∂g_i/∂x_j: through each pool of route i, g_i without that pool's rate, times the pool's
    // curvature, times how much of x_j reaches that pool (if route j goes through it the same way).
    // Allocated once, in place: a vector turned into an `Arc` was a second n² allocation and a
    // copy per evaluation (230 kB at 10,000 pools, whose frees sent glibc's malloc to its slow
    // path).
    let mut shared: Arc<[f64]> = std::iter::repeat_n(0.0, n.saturating_mul(n)).collect();
    // Not shared yet, so this borrows it in place (no copy).
    let hessian = Arc::make_mut(&mut shared);
    for i in 0..n {
        let route_uses = &hop_uses[hops_of(i)];
        for (k, &u) in route_uses.iter().enumerate() {
            let curvature = uses[u].curvature;
            if curvature == 0.0 {
                continue;
            }
            let others: f64 = route_uses
                .iter()
                .enumerate()
                .filter(|&(l, _)| l != k)
                .map(|(_, &v)| uses[v].rate)
                .product();
            let factor = others * curvature;
            for &(j, reach) in through.of_use(u) {
                if reach != 0.0 {
                    hessian[entry(i, j, n)] += factor * reach;
                }
            }
        }
    }
    // A candidate that does not reach the pool gets an empty sum's value (its sign included).
    let limits = (0..uses.len())
        .filter(|&u| uses[u].saturated)
        .map(|u| {
            let mut limit = vec![empty_sum(); n];
            for &(j, reach) in through.of_use(u) {
                limit[j] = reach;
            }
            limit
        })
        .collect();
    let limited = uses.iter().filter(|u| u.saturated).map(|u| (u.pool, u.token_in)).collect();
    let amount = f64::from(problem.amount_in);
    let hessian_finite = hessian.iter().all(|h| (h * amount * amount).is_finite());
    Some(Derivatives { gradient, hessian: shared, hessian_finite, limits, limited })
}

/// An empty sum's value (its sign is the standard library's choice): what a candidate that does
/// not reach a pool gets, and where each sum of [`Through`] starts, as a sum over the candidate's
/// hops would.
fn empty_sum() -> f64 {
    std::iter::empty::<f64>().sum()
}

/// Per pool use, the candidates through it (ascending) and how much of a unit of each one's input
/// reaches it, summed from an empty sum's value in hop order (as a sum over the candidate's hops
/// would, to the bit): looked up per pool rather than by scanning every candidate's hops for every
/// entry (n² × hops² steps per evaluation). One list for every use (use u's entries at
/// `starts[u]..starts[u + 1]`), counted first, then filled.
struct Through {
    entries: Vec<(usize, f64)>,
    starts: Vec<usize>,
}

impl Through {
    /// From each candidate's hops (`hop_uses` and `upstream`, candidate j's at
    /// `route_starts[j]..route_starts[j + 1]`) over `uses` pool uses.
    fn of(hop_uses: &[usize], upstream: &[f64], route_starts: &[usize], uses: usize) -> Through {
        // The last candidate seen through each use, so a candidate through a use twice counts once.
        let mut last = vec![usize::MAX; uses];
        let mut starts = vec![0usize; uses.saturating_add(1)];
        for (j, route) in route_starts.windows(2).enumerate() {
            for &v in &hop_uses[route[0]..route[1]] {
                if last[v] != j {
                    last[v] = j;
                    starts[v.saturating_add(1)] = starts[v.saturating_add(1)].saturating_add(1);
                }
            }
        }
        for v in 0..uses {
            starts[v.saturating_add(1)] = starts[v.saturating_add(1)].saturating_add(starts[v]);
        }
        let none = empty_sum();
        let mut entries = vec![(0usize, none); starts[uses]];
        let mut next = starts.clone();
        last.iter_mut().for_each(|l| *l = usize::MAX);
        for (j, route) in route_starts.windows(2).enumerate() {
            for (&v, &r) in hop_uses[route[0]..route[1]].iter().zip(&upstream[route[0]..route[1]]) {
                if last[v] == j {
                    entries[next[v].saturating_sub(1)].1 += r;
                } else {
                    last[v] = j;
                    entries[next[v]] = (j, none + r);
                    next[v] = next[v].saturating_add(1);
                }
            }
        }
        Through { entries, starts }
    }

    /// The candidates through pool use `u`, with how much of a unit of each one's input reaches it.
    fn of_use(&self, u: usize) -> &[(usize, f64)] {
        &self.entries[self.starts[u]..self.starts[u.saturating_add(1)]]
    }
}

/// The marginal rate of a pool at the overlay's state, and its slope measured by a probe swap of
/// a fraction of `scale`, and whether the pool could not take the probe. A pool at its limit gets
/// no curvature: the step may not send it more (`Derivatives::limits`), and a slope made up to
/// say so (its rate spent over the probe) would dwarf every other and stall the steps.
fn rate_and_curvature(
    problem: &Problem,
    overlay: &Overlay,
    hop: Hop,
    scale: f64,
) -> (f64, f64, bool) {
    let state = overlay.state(hop.pool);
    let (i, o) = (hop.token_in as usize, hop.token_out as usize);
    let rate = state.spot_price(i, o);
    let probe = (scale * PROBE_FRACTION).max(1.0);
    let amount = U256::try_from(probe.round()).unwrap_or(U256::from(1));
    let probe = f64::from(amount);
    // Memoised: a probe past a drained pool's last tick walks every empty word to the price limit.
    match problem.memos.apply(hop.pool, state, i, o, amount) {
        Ok((_, next)) => (rate, ((next.spot_price(i, o) - rate) / probe).min(0.0), false),
        Err(_) => (rate, 0.0, true),
    }
}
