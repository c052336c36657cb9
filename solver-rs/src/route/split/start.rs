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
use crate::math::U256;
use crate::route::path::Overlay;

/// Halvings when a route's amount is cut to what it can take: it is found to 2⁻²⁴ of the amount
/// (the Newton ascent moves it from there).
const CUT_STEPS: usize = 24;

/// `alloc` (summing to amountIn, routes run in `order`) changed as little as this finds to make
/// every route executable: a route that fails takes the largest amount it can (to [`CUT_STEPS`]
/// halvings, on the states the routes before it left), a route whose output is below its gas cost
/// takes nothing, and what they gave up goes to the open route with the largest amount that can
/// take it whole. None when no open route can.
pub(super) fn executable(problem: &Problem, order: &[usize], mut alloc: Vec<U256>) -> Option<Vec<U256>> {
    let mut overlay = Overlay::new(problem.market);
    let mut given_up = U256::ZERO;
    let mut cut = vec![false; alloc.len()];
    for &i in order {
        if alloc[i].is_zero() {
            continue;
        }
        let path = &problem.paths[i];
        let mut trial = overlay.clone();
        if let Ok((out, gas)) = trial.run(path, alloc[i], None) {
            if problem.pricer.is_priced() && out < problem.pricer.cost(gas) {
                given_up += alloc[i];
                alloc[i] = U256::ZERO;
                cut[i] = true;
            } else {
                overlay = trial;
            }
            continue;
        }
        // The largest amount that runs, by bisection between 0 (always runs) and alloc[i].
        let (mut lo, mut hi) = (U256::ZERO, alloc[i]);
        for _ in 0..CUT_STEPS {
            let mid = lo + (hi - lo) / U256::from(2);
            if mid == lo {
                break;
            }
            let mut trial = overlay.clone();
            if trial.run(path, mid, None).is_ok() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        if !lo.is_zero() {
            overlay.run(path, lo, None).ok()?;
        }
        given_up += alloc[i] - lo;
        alloc[i] = lo;
        cut[i] = true;
    }
    if given_up.is_zero() {
        return Some(alloc);
    }
    let mut takers: Vec<usize> = (0..alloc.len()).filter(|&i| !alloc[i].is_zero() && !cut[i]).collect();
    takers.sort_by(|&a, &b| alloc[b].cmp(&alloc[a]));
    takers.into_iter().find_map(|i| {
        let mut moved = alloc.clone();
        moved[i] += given_up;
        runs(problem, order, &moved).then_some(moved)
    })
}

/// Whether every route of `alloc` runs, in `order`, on one overlay.
fn runs(problem: &Problem, order: &[usize], alloc: &[U256]) -> bool {
    let mut overlay = Overlay::new(problem.market);
    order.iter().filter(|&&i| !alloc[i].is_zero()).all(|&i| overlay.run(&problem.paths[i], alloc[i], None).is_ok())
}
