//! Making a proposed start executable.
//!
//! A proposed allocation (the convex optimum's flows as paths) is measured in tokenIn, while the
//! venues it saturates are limited in their own tokens: replayed as routes that run one after
//! another, a path can reach a drained pool with a little more than the optimum sent there, and
//! its swap fails. Such a route is cut to what it can take and the rest goes to a route that can.
//! With gas priced, a route whose whole output does not pay for its gas is closed the same way:
//! closing it loses at most its output and saves its gas, so no plan keeps it (and the pruning of
//! routes, one ascent per open route and round, starts from fewer).

use super::Problem;
use crate::math::bisect::bisect;
use crate::math::U256;
use crate::route::gas_cap::{total_gas, MAX_PLAN_GAS};
use crate::route::path::{LegFill, Overlay};

/// Halvings when a route's amount is cut to what it can take: it is found to 2⁻²⁴ of the amount
/// (the Newton ascent moves it from there).
const CUT_STEPS: usize = 24;

/// `alloc` (summing to amountIn, routes run in `order`) changed as little as this finds to make
/// every route executable: a route that fails takes the largest amount it can (to [`CUT_STEPS`]
/// halvings, on the states the routes before it left), a route whose output is below its gas cost
/// takes nothing, and what they gave up goes to the open route with the largest amount that can
/// take it whole, or else is spread over the routes that were not cut, each taking what it can;
/// then, over the gas cap, its narrowest routes close. None when that fails, or once the deadline
/// has passed (checked before every replay of a route: the proposal is then dropped and the
/// optimizer starts from the best single path). With the allocation, its replay ([`Ran`]) when the
/// last pass ran it as it is returned.
pub(super) fn executable<'p>(
    problem: &'p Problem,
    order: &[usize],
    alloc: Vec<U256>,
) -> Option<(Vec<U256>, Option<Ran<'p>>)> {
    let (mut alloc, mut ran) = runnable(problem, order, alloc)?;
    // Then within the gas cap: the narrowest routes close (their input spread over the others in
    // proportion, the widths the optimum gave them) until the rest fits, and the result is made
    // runnable again; a few rounds, as redistributed input crosses more ticks.
    for round in 0..=GAS_ROUNDS {
        // Each route's gas units, from the pass's own run when it ran the allocation as it is.
        let run = match ran.take() {
            Some(run) => run,
            None => run_all(problem, order, &alloc)??,
        };
        let (legs, routes) = super::point::open_legs_and_routes(problem, &alloc);
        if problem.gas_cap.admits(total_gas(run.gas_units.iter().copied()), legs, routes) {
            return Some((alloc, Some(run)));
        }
        if round == GAS_ROUNDS {
            return None;
        }
        (alloc, ran) = runnable(problem, order, narrowed(problem, alloc, &run.gas_units))?;
    }
    None
}

/// Rounds of closing routes for the gas cap.
const GAS_ROUNDS: usize = 4;
/// A start over the gas cap is narrowed to this many tenths of it: the routes it keeps are the
/// optimum's widest, not the ones the plan needs most, and the room left lets the ascent open
/// the routes whose marginal rates say so (docs/solver-optimizer.md, *The bound*, has the
/// trade that chose seven tenths).
const NARROWED_TO_TENTHS: u64 = 7;

/// `alloc` without its narrowest routes, as many as bring it to [`NARROWED_TO_TENTHS`] of the gas
/// cap (by their gas units in `gas`), their input spread over the rest in proportion to their
/// amounts.
fn narrowed(problem: &Problem, mut alloc: Vec<U256>, gas: &[u64]) -> Vec<U256> {
    let mut open: Vec<usize> = (0..alloc.len()).filter(|&i| !alloc[i].is_zero()).collect();
    open.sort_by(|&a, &b| alloc[a].cmp(&alloc[b]));
    let fits = |kept: &[usize]| {
        let legs = kept.iter().map(|&i| problem.paths[i].hops.len()).sum();
        problem.gas_cap.plan_gas(total_gas(kept.iter().map(|&i| gas[i])), legs, kept.len())
            <= MAX_PLAN_GAS / 10 * NARROWED_TO_TENTHS
    };
    // Saturating: `alloc` sums to amountIn, so neither sum can reach 2^256 − 1; the balance below
    // restores that sum whatever these give.
    let mut closed = U256::ZERO;
    // Always one at least: the caller found the whole allocation over the cap.
    while open.len() > 1 && (closed.is_zero() || !fits(&open)) {
        let i = open.remove(0);
        closed = closed.saturating_add(alloc[i]);
        alloc[i] = U256::ZERO;
    }
    let kept = open.iter().fold(U256::ZERO, |sum, &i| sum.saturating_add(alloc[i]));
    if !kept.is_zero() {
        for &i in &open {
            // amount · closed / kept, floored; the dust goes to the widest route below.
            let share =
                crate::math::full_math::mul_div(alloc[i], closed, kept).unwrap_or(U256::ZERO);
            alloc[i] = alloc[i].saturating_add(share);
        }
    }
    super::balance_to(problem.amount_in, &mut alloc);
    alloc
}

/// An allocation's routes run in order on one fresh view (by [`runnable`]'s pass, when it ran the
/// allocation as it is, or by [`run_all`]): its replay, which the optimizer's start values instead
/// of running the same routes again ([`super::point::Replayed::of_run`]), and which gives each
/// route's gas units to the gas cap's check.
pub(super) struct Ran<'p> {
    pub(super) overlay: Overlay<'p>,
    /// Every leg, in the order they ran.
    pub(super) fills: Vec<LegFill>,
    /// Each candidate's gas units (0 for those that carry nothing).
    pub(super) gas_units: Vec<u64>,
    /// The routes' outputs summed in order; None past 2^256 − 1.
    pub(super) gross: Option<U256>,
}

/// The feasibility pass of [`executable`]: routes cut to what they take, what they give up placed;
/// with the replay ([`Ran`], each route's gas units with it) when nothing had to move (the pass ran
/// the allocation as it is).
fn runnable<'p>(
    problem: &'p Problem,
    order: &[usize],
    mut alloc: Vec<U256>,
) -> Option<(Vec<U256>, Option<Ran<'p>>)> {
    let mut gas_units = vec![0u64; alloc.len()];
    let mut overlay = Overlay::memoized(problem.market, problem.memos);
    let mut given_up = U256::ZERO;
    let mut cut = vec![false; alloc.len()];
    let (mut fills, mut gross) = (Vec::new(), Some(U256::ZERO));
    for &i in order {
        if alloc[i].is_zero() {
            continue;
        }
        if problem.budget.expired() {
            return None;
        }
        let path = &problem.paths[i];
        let mut trial = overlay.clone();
        let ran_before = fills.len();
        if let Ok((out, gas)) = trial.run(path, alloc[i], Some(&mut fills)) {
            if problem.pricer.is_priced() && out < problem.pricer.cost(gas) {
                given_up = given_up.checked_add(alloc[i])?;
                alloc[i] = U256::ZERO;
                cut[i] = true;
                fills.truncate(ran_before);
            } else {
                overlay = trial;
                gas_units[i] = gas;
                gross = gross.and_then(|g| g.checked_add(out));
            }
            continue;
        }
        fills.truncate(ran_before);
        let lo = largest_that_runs(problem, &overlay, i, alloc[i])?;
        if !lo.is_zero() {
            overlay.run(path, lo, None).ok()?;
        }
        given_up = given_up.checked_add(alloc[i].checked_sub(lo)?)?;
        alloc[i] = lo;
        cut[i] = true;
    }
    if given_up.is_zero() {
        return Some((alloc, Some(Ran { overlay, fills, gas_units, gross })));
    }
    // What was given up goes to the open routes that were not cut, largest first: the whole of it
    // to the first that takes it, else each takes what it can on top of the others' amounts, and
    // then the closed candidates in rank order (where the optimum strands flow at a middle token,
    // its own paths cannot carry all of amountIn).
    let mut takers: Vec<usize> =
        (0..alloc.len()).filter(|&i| !alloc[i].is_zero() && !cut[i]).collect();
    takers.sort_by(|&a, &b| alloc[b].cmp(&alloc[a]));
    let open = takers.len();
    takers.extend((0..alloc.len()).filter(|&i| alloc[i].is_zero() && !cut[i]));
    for &i in &takers[..open] {
        let mut moved = alloc.clone();
        moved[i] = moved[i].checked_add(given_up)?;
        if let Some(run) = run_all(problem, order, &moved)? {
            return Some((moved, Some(run)));
        }
    }
    for &i in &takers {
        // The most route i takes on top, with every other route as it is (all run in order).
        let (lo, _) = bisect(U256::ZERO, given_up, CUT_STEPS, |mid| {
            let mut trial = alloc.clone();
            trial[i] = trial[i].checked_add(mid)?;
            runs(problem, order, &trial)
        })?;
        alloc[i] = alloc[i].checked_add(lo)?;
        given_up = given_up.checked_sub(lo)?;
        if given_up.is_zero() {
            return Some((alloc, None));
        }
    }
    None
}

/// The largest amount up to `amount` that route `i` runs on `overlay`, by bisection between 0
/// (always runs) and `amount`, to [`CUT_STEPS`] halvings; None once the deadline has passed.
fn largest_that_runs(problem: &Problem, overlay: &Overlay, i: usize, amount: U256) -> Option<U256> {
    let runs = |mid: U256| {
        (!problem.budget.expired())
            .then(|| overlay.clone().run(&problem.paths[i], mid, None).is_ok())
    };
    bisect(U256::ZERO, amount, CUT_STEPS, runs).map(|(lo, _)| lo)
}

/// Whether every route of `alloc` runs, in `order`, on one overlay; None once the deadline has
/// passed (checked before each route).
fn runs(problem: &Problem, order: &[usize], alloc: &[U256]) -> Option<bool> {
    run_all(problem, order, alloc).map(|run| run.is_some())
}

/// Every route of `alloc` run in `order` on one fresh view ([`Ran`]: the start's evaluation
/// values it without running the routes again), or None inside if one does not run; None once
/// the deadline has passed (checked before each route).
fn run_all<'p>(problem: &'p Problem, order: &[usize], alloc: &[U256]) -> Option<Option<Ran<'p>>> {
    let mut overlay = Overlay::memoized(problem.market, problem.memos);
    let (mut fills, mut gross) = (Vec::new(), Some(U256::ZERO));
    let mut gas_units = vec![0u64; alloc.len()];
    for &i in order.iter().filter(|&&i| !alloc[i].is_zero()) {
        if problem.budget.expired() {
            return None;
        }
        let Ok((out, gas)) = overlay.run(&problem.paths[i], alloc[i], Some(&mut fills)) else {
            return Some(None);
        };
        gas_units[i] = gas;
        gross = gross.and_then(|g| g.checked_add(out));
    }
    Some(Some(Ran { overlay, fills, gas_units, gross }))
}
