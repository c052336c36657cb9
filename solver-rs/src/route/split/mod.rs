//! The split optimizer: allocates the input across candidate paths to maximise output net of gas.
//!
//! Objective: routes run in execution order, each on the pool states the earlier ones left, so
//! the value of an allocation is exact (`point.rs`). The search is a Newton ascent
//! (`newton.rs`): the gross output's gradient and curvature come from the pools' marginal rates
//! at their final states, each step solves the quadratic model under the budget constraint, and
//! the exact value accepts or halves it. Gas, a fixed cost per open route, is handled by searching
//! route sets (`route_set.rs`); the order of routes that share pools last (`order.rs`). The
//! search stops at the deadline with the best allocation found. See docs/solver-optimizer.md.

mod budget;
mod newton;
mod order;
mod point;
mod route_set;
mod start;
mod structure;

use super::gas::GasPricer;
use super::gas_cap::GasCap;
use super::net::Net;
use super::path::{quote_path_memoized, Path};
use super::swap_memos::SwapMemos;
use crate::market::Market;
use crate::math::U256;
pub use budget::Budget;
use newton::{ascend, balance, Rules};
use point::{replay, Point, Replayed};
use route_set::RouteSearch;
use structure::structure;

/// An allocation problem over fixed candidate paths.
pub struct Problem<'a> {
    pub market: &'a Market,
    /// Candidates, in the order their routes would execute.
    pub paths: &'a [Path],
    pub amount_in: U256,
    pub pricer: &'a GasPricer,
    /// No pool may appear in two routes.
    pub disjoint: bool,
    /// Checked before every route of every evaluation of an allocation but the start's (and
    /// before each probe swap of its derivatives): past it, the evaluation under way is dropped,
    /// so at most one route's swaps run late. Whether the search finished in time is the
    /// budget's to say ([`Budget::stopped_in`]).
    pub budget: &'a Budget<'a>,
    /// Per candidate, its (output, gas units) for the whole amount on the market as it is, where
    /// the quote already computed it (the path searches and the evaluation phase): the best single
    /// path is picked from these without swapping them again.
    pub whole: Vec<Option<(U256, u64)>>,
    /// An allocation to start from (summing to `amount_in`), e.g. the convex optimum's flows; the
    /// search starts from the better of it and the best single path.
    pub start: Option<Vec<U256>>,
    /// A certified upper bound on the gross output of any allocation (the convex bound): once an
    /// allocation is within [`CLOSE_ENOUGH`] of it, no refinement can gain anything worth an
    /// evaluation, and the search stops there.
    pub target: Option<U256>,
    /// The pools' swap memos of the quote's `market` (`route/swap_memos.rs`): the searches'
    /// swaps left them, and this problem's evaluations use and extend them.
    pub memos: &'a SwapMemos,
    /// The most gas a plan of more than one route may need (`route/gas_cap.rs`).
    pub gas_cap: GasCap,
}

/// How close to `target` (a fraction of it: 0.05 bps) ends the search.
pub const CLOSE_ENOUGH: f64 = 5e-6;
/// How far below `target` (a fraction of it: 5 bps) a gas-free search tries a second way up.
const FAR: f64 = 5e-4;

impl Problem<'_> {
    /// Whether `gross` is more than [`FAR`] below the target.
    fn far(&self, gross: U256) -> bool {
        self.target.is_some_and(|t| f64::from(gross) < f64::from(t) * (1.0 - FAR))
    }

    /// Whether `gross` is within [`CLOSE_ENOUGH`] of the target.
    fn reached(&self, gross: U256) -> bool {
        self.target.is_some_and(|t| f64::from(gross) >= f64::from(t) * (1.0 - CLOSE_ENOUGH))
    }
}

/// The allocation found and its exact value.
#[derive(Clone, Debug)]
pub struct Solution {
    pub alloc: Vec<U256>,
    pub value: Net,
    /// Candidate indices in execution order (routes that share pools run in this order).
    pub order: Vec<usize>,
}

/// Makes `alloc` sum to `amount` by adjusting its largest entry (dust of rounding goes there).
pub fn balance_to(amount: U256, alloc: &mut [U256]) {
    balance(amount, alloc);
}

/// The best single path: the candidate whose whole-amount value is highest (first on ties), among
/// those whose whole-amount quote [`Problem::whole`] holds (the searched paths: the single-path
/// quote picks from the same, so a split plan is never below it). The others (the convex
/// optimum's and the re-split's paths, proposed for a share of the amount) are quoted at the whole
/// amount only when no candidate's quote is known, while the deadline allows; past it, in order
/// until one takes the whole amount (a plan needs one). Quoting them every time was a quarter of a
/// 2-hop split quote's optimizer time (each a whole-amount swap across many ticks), and the
/// optimum's paths are tried anyway, together, as the proposed start.
pub fn best_single(problem: &Problem) -> Option<(usize, Net)> {
    let known = |i: usize| problem.whole.get(i).copied().flatten();
    let mut best: Option<(usize, Net)> = None;
    let consider = |best: &mut Option<(usize, Net)>, i: usize, (out, gas): (U256, u64)| {
        let value = Net::new(out, problem.pricer.cost(gas));
        if best.is_none_or(|(_, b)| value > b) {
            *best = Some((i, value));
        }
    };
    for i in 0..problem.paths.len() {
        if let Some(quote) = known(i) {
            consider(&mut best, i, quote);
        }
    }
    if best.is_some() {
        return best;
    }
    for (i, path) in problem.paths.iter().enumerate() {
        if known(i).is_none() && !problem.budget.expired() {
            if let Ok(quote) =
                quote_path_memoized(problem.market, problem.memos, path, problem.amount_in)
            {
                consider(&mut best, i, quote);
            }
        }
    }
    if best.is_none() {
        // Only when the deadline left every unknown candidate unquoted (else all were tried).
        let first = (0..problem.paths.len()).filter(|&i| known(i).is_none()).find_map(|i| {
            quote_path_memoized(problem.market, problem.memos, &problem.paths[i], problem.amount_in)
                .ok()
                .map(|quote| (i, quote))
        });
        if let Some((i, quote)) = first {
            consider(&mut best, i, quote);
        }
    }
    best
}

/// Allocates `amount_in` across the candidates. None when no allocation can be filled.
///
/// The start (the best single path, from the candidates' known whole-amount quotes, and one
/// evaluation of it) is computed whatever the deadline: one route's swaps that make the plan never
/// worse than the best single path. Everything else checks the deadline: quoting the candidates
/// whose quote is not known, making the proposed start executable, and every later evaluation.
///
/// The gas-free optimum is found by Newton ascent from the best single path; with a gas price,
/// it is pruned of routes that do not pay for their gas, and routes are also grown one by one
/// from the best single path; the best of these and the single path wins (so the plan is never
/// worse than the best single path). The order of routes that share pools is searched last.
pub fn optimize(problem: &Problem) -> Option<Solution> {
    let n = problem.paths.len();
    if n == 0 {
        return None;
    }
    let structure = structure(problem.paths);
    let mut order: Vec<usize> = (0..n).collect();
    let start = start(problem, &order)?;
    let everyone = vec![true; n];
    let (sharing, disjoint) = (&structure.conflicts[..], problem.disjoint);
    let mut search = RouteSearch { problem, order: &order, sharing, converged: true };

    let gas_free = match search.problem.budget.expired() {
        true => None,
        false => ascend(
            problem,
            &order,
            start.clone(),
            &Rules { allowed: &everyone, open_more: true, sharing, disjoint },
        ),
    };
    let mut best = start.clone();
    if let Some((optimum, converged)) = gas_free {
        search.converged &= converged;
        if problem.pricer.is_priced() {
            let pruned = search.prune(optimum);
            keep_better(&mut best, pruned);
            if start.open_count() == 1 {
                let grown = search.grow(start);
                keep_better(&mut best, grown);
            }
        } else {
            keep_better(&mut best, optimum);
            // Far from the bound, the ascent from the optimum's flows (or from the single path
            // straight to all routes at once) may have stopped on a pool's limit; opening routes one
            // at a time from the single path is another way up, and the better one is kept.
            if start.open_count() == 1 && problem.far(best.gross()) {
                let grown = search.grow(start);
                keep_better(&mut best, grown);
            }
        }
    } else {
        search.converged = false;
    }
    // The route order is searched only at a converged allocation (each order is an evaluation,
    // and an unconverged allocation is not the one to order).
    if search.converged && !problem.reached(best.gross()) {
        if let Some(reordered) = order::reorder(problem, &structure.components, &mut order, &best) {
            best = reordered;
            let allowed: Vec<bool> = (0..n).map(|i| !best.alloc[i].is_zero()).collect();
            if let Some((polished, _)) = ascend(
                problem,
                &order,
                best.clone(),
                &Rules { allowed: &allowed, open_more: false, sharing, disjoint },
            ) {
                keep_better(&mut best, polished);
            }
        }
    }
    Some(Solution { alloc: best.alloc, value: best.value, order })
}

/// Where the search starts: the best single path, or (if no path can take the whole amount) an
/// equal split over every candidate; or the problem's own start when that is better.
fn start(problem: &Problem, order: &[usize]) -> Option<Point> {
    let n = problem.paths.len();
    let mut alloc = vec![U256::ZERO; n];
    match best_single(problem) {
        Some((i, _)) => alloc[i] = problem.amount_in,
        None => {
            // n ≥ 1 (checked above): the division has a divisor.
            let each = problem.amount_in.checked_div(U256::from(n)).unwrap_or(problem.amount_in);
            alloc.iter_mut().for_each(|a| *a = each);
            balance(problem.amount_in, &mut alloc);
        }
    }
    // Both starts are valued first, and only the better one's derivatives are computed (a probe
    // swap per pool of every candidate, and the n × n curvature matrix): the other's were
    // computed for nothing, one of the two evaluations with derivatives of a 1,000-pool 2-hop
    // 1× split quote. The best single path's value is computed whatever the deadline; its
    // derivatives' probe swaps check it (past it, the start has none, and nothing steps from it).
    let single = replay(problem, order, alloc, true, false).ok();
    let proposed = problem
        .start
        .as_ref()
        .filter(|a| a.len() == n)
        .and_then(|a| start::executable(problem, order, a.clone()))
        .and_then(|(a, ran)| match ran {
            // Ran as it is: its replay is the evaluation's (one run of the routes, not two).
            Some(ran) => Replayed::of_run(problem, a, ran).ok(),
            None => replay(problem, order, a, true, true).ok(),
        });
    let better = match (single, proposed) {
        (Some(single), Some(proposed)) if proposed.value() > single.value() => proposed,
        (Some(single), _) => single,
        (None, proposed) => proposed?,
    };
    better.with_derivatives(problem, false).ok()
}

fn keep_better(best: &mut Point, candidate: Point) {
    if candidate.value > best.value {
        *best = candidate;
    }
}
