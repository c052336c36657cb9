//! Which routes to open when each costs gas. Gas is a fixed cost per open route, so the objective
//! is not concave and the Newton ascent (which maximises the gross output) never closes a route
//! to save its gas. Two searches over route sets, each set's allocation found by the ascent:
//!
//! - **pruning** from the gas-free optimum: open routes are tried closed (their input
//!   redistributed, the rest re-optimised), the model's most promising first, the first closure
//!   that pays is kept, and this repeats while one pays (after a closure that pays, only the
//!   closures the round predicted to pay and did not try are predicted again, until none pays);
//! - **growing** from the best single path: routes are added one at a time while one pays.
//!
//! The model's predicted change (gross lost by a closure, gross gained by an opening) skips trials
//! that could not pay for or save twice their gas.

use super::newton::{ascend, Model, Rules, Scratch, INITIAL_DAMPING};
use super::point::Point;
use super::Problem;
use crate::math::U256;
use crate::pools::SwapOutcome;
use crate::route::gas_cap::total_gas;

/// A trial runs only if the model's predicted gross change is within this factor of the gas.
const TRIAL_SLACK: f64 = 2.0;

pub(super) struct RouteSearch<'a, 'p> {
    pub(super) problem: &'p Problem<'a>,
    pub(super) order: &'p [usize],
    /// Per candidate, the candidates that share a pool with it.
    pub(super) sharing: &'p [Vec<usize>],
    pub(super) converged: bool,
}

impl RouteSearch<'_, '_> {
    fn expired(&mut self) -> bool {
        let expired = self.problem.budget.expired();
        self.converged &= !expired;
        expired
    }

    /// The gas cost, in tokenOut, of `units` more (or fewer, if negative) than `point` spends.
    fn cost_change(&self, point: &Point, units: i128) -> f64 {
        let total = point.gas_total();
        let changed =
            u64::try_from(i128::from(total).saturating_add(units).max(0)).unwrap_or(u64::MAX);
        f64::from(self.problem.pricer.cost(changed)) - f64::from(self.problem.pricer.cost(total))
    }

    fn rules<'r>(&'r self, allowed: &'r [bool], open_more: bool) -> Rules<'r> {
        Rules { allowed, open_more, sharing: self.sharing, disjoint: self.problem.disjoint }
    }

    fn ascend_from(&mut self, point: &Point, allowed: &[bool], open_more: bool) -> Option<Point> {
        let rules = self.rules(allowed, open_more);
        let (result, converged) = ascend(self.problem, self.order, point.clone(), &rules)?;
        self.converged &= converged;
        Some(result)
    }

    /// Closes routes of `start` (the gas-free optimum) while a closure pays for itself.
    pub(super) fn prune(&mut self, start: Point) -> Point {
        let allowed = vec![true; start.alloc.len()];
        self.toggle_routes(start, allowed, true)
    }

    /// Adds routes to `start` (the best single path) while an addition pays for its gas.
    pub(super) fn grow(&mut self, start: Point) -> Point {
        let allowed: Vec<bool> = start.alloc.iter().map(|a| !a.is_zero()).collect();
        self.toggle_routes(start, allowed, false)
    }

    /// Rounds of trials: open routes closed (`closing`; the first that beats the best is kept) or
    /// every closed route with a better marginal rate opened (the best trial is kept), each
    /// re-optimised, while one beats the best.
    fn toggle_routes(&mut self, start: Point, mut allowed: Vec<bool>, closing: bool) -> Point {
        let n = start.alloc.len();
        let mut best = start;
        // The model steps' buffers, one set for every trial (see `Model::step_into`).
        let (mut delta, mut scratch) = (Vec::with_capacity(n), Scratch::default());
        // The closures the last round predicted to pay and did not try, in its order: after a
        // closure that pays, the next round predicts only these again (from the new point), and
        // predicts every open route's closure only once none of them pays, so the pruning still
        // ends on a round that tried every open route's closure at its last point. Predicting
        // every open route's closure every round (a model step each, 16 + 15 + … + 11 on the
        // 10,000-pool 2-hop 1× trade) was about half of the pruning.
        let mut pending: Vec<usize> = Vec::new();
        // The closures whose trial from `best` did not pay: a full round after a partial one
        // does not try them again (the ascent from the same point under the same rules is the
        // same, so it would not pay again), nor predict them.
        let mut failed: Vec<usize> = Vec::new();
        // The closures a partial round predicted from `best` not to pay even twice their gas
        // (so not tried): the full round that follows from the same `best` would make the same
        // model step for each (the same point, model and rules), so it skips them, as it skips
        // `failed`.
        let mut hopeless: Vec<usize> = Vec::new();
        loop {
            let model = Model::at(self.problem, &best);
            // Taken whatever happens: a round that finds no closure to try must not find the
            // same list again (a partial round without trials is followed by a full one).
            let pending_now = std::mem::take(&mut pending);
            let partial = closing && !pending_now.is_empty();
            let moves: Vec<usize> = if closing {
                let open: Vec<usize> = best.open().collect();
                if open.len() < 2 {
                    Vec::new()
                } else if partial {
                    // The trial that paid may have closed some of them too.
                    pending_now.into_iter().filter(|&k| !best.alloc[k].is_zero()).collect()
                } else {
                    open.into_iter()
                        .filter(|k| !failed.contains(k) && !hopeless.contains(k))
                        .collect()
                }
            } else {
                let rate = best.open().map(|i| model.gradient(i)).fold(f64::INFINITY, f64::min);
                let mut closed: Vec<usize> = (0..n)
                    .filter(|&j| !allowed[j] && model.gradient(j) > rate)
                    .filter(|&j| {
                        !self.rules(&allowed, true).clashes(j, |k| !best.alloc[k].is_zero())
                    })
                    .collect();
                closed.sort_by(|&a, &b| {
                    model.gradient(b).total_cmp(&model.gradient(a)).then(a.cmp(&b))
                });
                closed
            };
            // The model's gross change against the gas change: a closure saves gas and loses
            // output, an opening the reverse; hopeless trials are skipped, and closures are tried
            // most promising first.
            let mut trials: Vec<(usize, f64)> = Vec::with_capacity(moves.len());
            for k in moves {
                // A model step is an active-set solve, a factorisation per pass, over the open
                // routes, and no route is evaluated between two of them: with 51 open routes (the
                // 10,000-pool 1-hop 100× trade) one round of predictions took about 2 ms past a
                // 1 ms budget. Checked per step, the overshoot here is one model step.
                if self.expired() {
                    return best;
                }
                // Each trial's rules are `allowed` with `k` toggled, restored after its step.
                let was = allowed[k];
                allowed[k] = !closing;
                let rules = self.rules(&allowed, !closing);
                let gross = model.step_into(&rules, INITIAL_DAMPING, &mut delta, &mut scratch);
                allowed[k] = was;
                let (benefit, harm) = if closing {
                    (
                        -self.cost_change(
                            &best,
                            0i128.saturating_sub(i128::from(best.gas_units[k])),
                        ),
                        -gross,
                    )
                } else {
                    (gross, self.cost_change(&best, i128::from(base_gas(self.problem, k))))
                };
                if harm <= TRIAL_SLACK * benefit {
                    trials.push((k, benefit - harm));
                } else if partial {
                    hopeless.push(k);
                }
            }
            if closing {
                trials.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            }
            let mut round: Option<(Point, usize)> = None;
            for (index, &(k, _)) in trials.iter().enumerate() {
                if self.expired() {
                    return round.map_or(best, |(p, _)| p);
                }
                let mut trial = allowed.clone();
                trial[k] = !closing;
                let Some(point) = self.ascend_from(&best, &trial, !closing) else {
                    failed.push(k);
                    continue;
                };
                if point.value <= best.value {
                    failed.push(k);
                }
                if point.value > round.as_ref().map_or(best.value, |(p, _)| p.value) {
                    round = Some((point, k));
                    // A closure that pays is taken at once (the next round tries the rest again
                    // from it): trying every open route closed, each a whole ascent, was most of
                    // a 10,000-pool split quote's optimizer time.
                    if closing {
                        let rest = trials.get(index.saturating_add(1)..).unwrap_or_default();
                        pending.extend(rest.iter().filter(|t| t.1 > 0.0).map(|t| t.0));
                        break;
                    }
                }
            }
            match round {
                Some((point, k)) => {
                    allowed[k] = !closing;
                    best = point;
                    failed.clear();
                    hopeless.clear();
                }
                // A partial round's closures did not pay: every open route's is predicted next.
                None if partial => {}
                None => return best,
            }
        }
    }
}

/// The gas units candidate `j` costs before any tick crossing: the base gas of its legs.
fn base_gas(problem: &Problem, j: usize) -> u64 {
    total_gas(problem.paths[j].hops.iter().map(|hop| {
        problem.market.pool(hop.pool).spec.leg_gas_units(&SwapOutcome::flat(U256::ZERO))
    }))
}
