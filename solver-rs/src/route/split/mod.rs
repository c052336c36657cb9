//! The split optimizer: allocates the input across candidate paths to maximise output net of gas.
//!
//! Objective: routes run in candidate order, each on the pool states the earlier ones left, so the
//! value of an allocation is exact. Candidates that share no pool never affect each other; they
//! are grouped into components (union of pool sharing), and a change to one candidate only
//! re-simulates its component.
//!
//! Method (see `optimize` and docs/solver-optimizer.md): greedy allocation in equal chunks, then
//! a local search (`refine`) that moves a step of input between routes while that helps, halving
//! the step; routes whose gas outweighs what they add are closed (`closing`); the order of routes
//! that share pools is searched (`order`). The search stops at the deadline.

mod closing;
mod order;
mod refine;
mod search;

use super::clock::Deadline;
use super::gas::GasPricer;
use super::net::Net;
use super::path::{quote_path, Path};
use crate::market::Market;
use crate::math::U256;
use order::{permutations, MAX_REFINED_ORDERS_ROUTES};
use search::Search;

/// Greedy chunks: the first allocation has this resolution.
const GREEDY_CHUNKS: u64 = 20;
/// The finest step is amountIn >> this (about 1.5e-5 of the amount): the misallocation left costs
/// on the order of (1.5e-5)² of the output, far below 0.1 bps.
const FINEST_STEP_SHIFT: usize = 16;
/// Marginal rates for pruning route closures are measured over amountIn >> this.
const SLOPE_STEP_SHIFT: usize = 14;
/// Trial refinements (route closures, the single-path start, route orders) stop at amountIn >> this;
/// only the allocation that wins is refined to the finest step.
const TRIAL_STEP_SHIFT: usize = 8;

/// An allocation problem over fixed candidate paths.
pub struct Problem<'a> {
    pub market: &'a Market,
    /// Candidates, in the order their routes would execute.
    pub paths: &'a [Path],
    pub amount_in: U256,
    pub pricer: &'a GasPricer,
    /// No pool may appear in two routes.
    pub disjoint: bool,
    pub deadline: Deadline,
}

/// The allocation found, its exact value, and whether the search finished before the deadline.
#[derive(Clone, Debug)]
pub struct Solution {
    pub alloc: Vec<U256>,
    pub value: Net,
    pub converged: bool,
    /// Candidate indices in execution order (routes that share pools run in this order).
    pub order: Vec<usize>,
}

/// The best single path: the candidate whose whole-amount value is highest (first on ties).
pub fn best_single(problem: &Problem) -> Option<(usize, Net)> {
    let mut best: Option<(usize, Net)> = None;
    for (i, path) in problem.paths.iter().enumerate() {
        if let Ok((out, gas)) = quote_path(problem.market, path, problem.amount_in) {
            let value = Net::new(out, problem.pricer.cost(gas));
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((i, value));
            }
        }
    }
    best
}

/// Allocates `amount_in` across the candidates. None when no allocation can be filled.
///
/// Gas is a fixed cost per route, which makes the objective non-concave: small moves never close
/// a route. So the gas-free problem (concave) is solved first and then pruned of routes whose gas
/// outweighs what they add; the best single path, coarsely refined, is a second start and the
/// floor; the order of routes that share pools is searched last. The best allocation seen wins.
pub fn optimize(problem: &Problem) -> Option<Solution> {
    let n = problem.paths.len();
    let single = best_single(problem);
    let mut search = Search::new(problem, false);
    let mut converged = true;

    // Start 1: the gas-free optimum (greedy, refined). Without a gas price it is the answer.
    if search.greedy().is_none() && single.is_none() {
        return None;
    }
    let mut best: Option<(Net, Vec<U256>)> = None;
    if !search.alloc.iter().all(|a| a.is_zero()) {
        converged &= search.refine(FINEST_STEP_SHIFT);
        search.with_gas = true;
        if search.set(search.alloc.clone()) {
            best = Some((search.total, search.alloc.clone()));
            if problem.pricer.is_priced() {
                // With gas, prune it of routes whose gas outweighs what they add. It is pruned
                // even when it starts below the single path: its best subset is often the winner.
                converged &= search.refine(TRIAL_STEP_SHIFT);
                best = Some(search.close_routes(&mut converged));
            }
        }
    }
    search.with_gas = true;
    // Start 2: the best single path, refined coarsely with gas (with routes that share pools the
    // search from one route can end elsewhere than from many). Comparing with it is also what
    // guarantees the plan is never worse than the best single path. Its closing phase is skipped:
    // it starts from one route and opens only routes that pay for their gas.
    if let Some((i, value)) = single {
        let mut alloc = vec![U256::ZERO; n];
        alloc[i] = problem.amount_in;
        if best.as_ref().is_none_or(|(b, _)| value > *b) {
            best = Some((value, alloc.clone()));
        }
        if search.set(alloc) {
            converged &= search.refine(TRIAL_STEP_SHIFT);
            if best.as_ref().is_none_or(|(b, _)| search.total > *b) {
                best = Some((search.total, search.alloc.clone()));
            }
        }
    }
    let (mut best_value, mut best_alloc) = best?;
    if problem.pricer.is_priced() && search.set(best_alloc.clone()) {
        converged &= search.refine(FINEST_STEP_SHIFT);
        if search.total > best_value {
            (best_value, best_alloc) = (search.total, search.alloc.clone());
        }
    }

    // Phase 3: the order of routes that share pools changes what they get (a pool's state after
    // one route's swap is the next route's price). Small components try every order of their
    // open routes, each re-refined; larger ones take the best order at the current allocation.
    if converged && search.set(best_alloc.clone()) {
        for c in 0..search.structure.members.len() {
            let members = search.structure.members[c].clone();
            let (open, idle): (Vec<usize>, Vec<usize>) = members.iter().partition(|&&i| !best_alloc[i].is_zero());
            if open.len() < 2 || open.len() > MAX_REFINED_ORDERS_ROUTES {
                continue;
            }
            let mut best_members = members.clone();
            for perm in permutations(&open).into_iter().skip(1) {
                if problem.deadline.expired() {
                    converged = false;
                    break;
                }
                search.structure.members[c] = perm.into_iter().chain(idle.iter().copied()).collect();
                if !search.set(best_alloc.clone()) {
                    continue;
                }
                converged &= search.refine(TRIAL_STEP_SHIFT);
                if search.total > best_value {
                    (best_value, best_alloc) = (search.total, search.alloc.clone());
                    best_members = search.structure.members[c].clone();
                }
            }
            let reordered = best_members != members;
            search.structure.members[c] = best_members;
            if reordered && search.set(best_alloc.clone()) {
                converged &= search.refine(FINEST_STEP_SHIFT);
                if search.total > best_value {
                    (best_value, best_alloc) = (search.total, search.alloc.clone());
                }
            }
        }
        let kept_order = search.structure.members.clone();
        if search.set(best_alloc.clone()) && search.reorder() {
            converged &= search.refine(FINEST_STEP_SHIFT);
            if search.total > best_value {
                (best_value, best_alloc) = (search.total, search.alloc.clone());
            } else {
                search.structure.members = kept_order;
            }
        }
    }
    let order = search.structure.members.iter().flatten().copied().collect();
    Some(Solution { alloc: best_alloc, value: best_value, converged, order })
}
