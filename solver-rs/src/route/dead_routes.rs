//! A plan's routes that pay nothing: their input joins a route that does.
//!
//! A route can carry input and pay 0: an earlier route of the plan drained a pool it shares (at
//! saturating amounts, the second route through a constant-product pool whose output reserve an
//! earlier route took to a few wei), and an optimizer stopped by its budget may leave one there.
//! Such a route gives its input away for nothing, costs gas, and its later legs receive 0, which a
//! venue's router refuses (Curve's `exchange` of 0, a sampled venue's view of 0 in). The plan keeps
//! none: the dead routes' input is moved to the live route with which the plan nets the most.

use super::clock::Deadline;
use super::gas::GasPricer;
use super::net::Net;
use super::path::{Overlay, Path};
use super::split::Solution;
use super::swap_memos::SwapMemos;
use crate::market::Market;
use crate::math::U256;

/// One exact replay of an allocation in `order`: each candidate's output (0 for one that carries
/// nothing) and the plan's value net of gas; None when a route refuses its amount or the outputs
/// sum past 2^256 − 1.
fn replay(
    market: &Market,
    paths: &[&Path],
    memos: &SwapMemos,
    pricer: &GasPricer,
    order: &[usize],
    alloc: &[U256],
) -> Option<(Vec<U256>, Net)> {
    let mut overlay = Overlay::memoized(market, memos);
    let mut outs = vec![U256::ZERO; alloc.len()];
    let (mut gross, mut gas) = (U256::ZERO, 0u64);
    for &i in order {
        let (path, amount) = (paths.get(i)?, *alloc.get(i)?);
        if amount.is_zero() {
            continue;
        }
        let (out, route_gas) = overlay.run(path, amount, None).ok()?;
        *outs.get_mut(i)? = out;
        gross = gross.checked_add(out)?;
        gas = gas.saturating_add(route_gas);
    }
    Some((outs, Net::new(gross, pricer.cost(gas))))
}

/// `solution` with no route that carries input and pays 0. The dead routes' input goes whole to
/// one live route: each is tried in turn (the largest allocation first, then others while the
/// deadline allows; the first is tried past it, so the plan stays executable), and the one with
/// which the plan nets the most is kept. Moving input may drain a pool a later route shares, so
/// this repeats until no route is dead, at most once per route. None when every route is dead or
/// no live route can take the dead routes' input: there is then no plan that pays.
pub fn without_dead_routes(
    market: &Market,
    paths: &[&Path],
    memos: &SwapMemos,
    pricer: &GasPricer,
    deadline: &Deadline,
    solution: Solution,
) -> Option<Solution> {
    let Solution { mut alloc, mut value, order } = solution;
    let (mut outs, _) = replay(market, paths, memos, pricer, &order, &alloc)?;
    for _ in 0..=order.len() {
        let dead: Vec<usize> =
            order.iter().copied().filter(|&i| !alloc[i].is_zero() && outs[i].is_zero()).collect();
        if dead.is_empty() {
            return Some(Solution { alloc, value, order });
        }
        let moved = dead.iter().try_fold(U256::ZERO, |sum, &i| sum.checked_add(alloc[i]))?;
        let mut live: Vec<usize> =
            order.iter().copied().filter(|&i| !alloc[i].is_zero() && !outs[i].is_zero()).collect();
        live.sort_by(|a, b| alloc[*b].cmp(&alloc[*a]));
        let mut best: Option<(Vec<U256>, Vec<U256>, Net)> = None;
        for (tried, &to) in live.iter().enumerate() {
            if tried > 0 && deadline.expired() {
                break;
            }
            let mut next = alloc.clone();
            for &i in &dead {
                next[i] = U256::ZERO;
            }
            next[to] = next[to].checked_add(moved)?;
            if let Some((next_outs, next_value)) =
                replay(market, paths, memos, pricer, &order, &next)
            {
                if best.as_ref().is_none_or(|(_, _, v)| next_value > *v) {
                    best = Some((next, next_outs, next_value));
                }
            }
        }
        (alloc, outs, value) = best?;
    }
    None
}
