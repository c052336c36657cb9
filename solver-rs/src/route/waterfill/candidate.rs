//! The routes Fynd's water-fill chooses between, each built as the tree it executes
//! ([`super::tree`]) and valued by that tree's exact output net of gas.

use super::tree::{execute, Tree};
use super::view::{step, View};
use super::Solve;
use crate::math::U256;
use crate::route::net::Net;
use serde::Serialize;

/// Which of Fynd's candidates a route is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Strategy {
    /// The best single path at the whole amount (the floor).
    SinglePath,
    /// 20-chunk gated water-fill over up to 4 pool-disjoint paths.
    CoarseDisjoint,
    /// 256-chunk water-fill over the paths the coarse pass used, then exchange refinement.
    RefinedDisjoint,
    /// 20-chunk gated then 256-chunk water-fill over paths that may share pools (tree routes).
    FillAndSpill,
}

/// A candidate route: the paths and the fraction of amountIn each carries, and the executed tree.
pub struct Candidate {
    pub strategy: Strategy,
    /// (index into the solve's paths, fraction of amountIn).
    pub shares: Vec<(usize, f64)>,
    pub tree: Tree,
}

impl Candidate {
    /// The tree's output net of its gas, in tokenOut.
    pub fn net(&self, solve: &Solve) -> Net {
        Net::new(self.tree.amount_out, solve.pricer.cost(self.tree.gas_units))
    }
}

/// `part / whole` as a float (a share of amountIn).
fn ratio(part: U256, whole: U256) -> f64 {
    if whole.is_zero() {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

/// Builds the tree of `shares`; None when it cannot run or pays nothing.
fn assemble(solve: &Solve, strategy: Strategy, shares: Vec<(usize, f64)>) -> Option<Candidate> {
    let with_paths: Vec<_> = shares.iter().map(|&(p, s)| (&solve.paths[p], s)).collect();
    let tree = execute(solve.market, &with_paths, solve.amount_in)?;
    (!tree.amount_out.is_zero()).then_some(Candidate { strategy, shares, tree })
}

/// The single path `path` carrying everything.
pub fn single(solve: &Solve, path: usize) -> Option<Candidate> {
    assemble(solve, Strategy::SinglePath, vec![(path, 1.0)])
}

/// Pool-disjoint paths at their amounts (`alloc[i]` for `subset[i]`): each must take its amount
/// alone (Fynd simulates each leg on fresh state before assembling).
pub fn disjoint(
    solve: &Solve,
    strategy: Strategy,
    subset: &[usize],
    alloc: &[U256],
) -> Option<Candidate> {
    let mut shares = Vec::new();
    for (&p, &amount) in subset.iter().zip(alloc) {
        if amount.is_zero() {
            continue;
        }
        step(solve.market, &View::default(), &solve.paths[p], amount)?;
        shares.push((p, ratio(amount, solve.amount_in)));
    }
    if shares.is_empty() {
        return None;
    }
    assemble(solve, strategy, shares)
}

/// Fill-and-spill's result: each path's total from the pour `schedule` (indices into `active`),
/// committed one after another, largest first, on one view (each must take its amount there),
/// then assembled. None with fewer than two paths.
pub fn shared(solve: &Solve, active: &[usize], schedule: &[(usize, U256)]) -> Option<Candidate> {
    let mut totals = vec![U256::ZERO; active.len()];
    for &(i, chunk) in schedule {
        totals[i] = totals[i].saturating_add(chunk);
    }
    let mut order: Vec<usize> = (0..active.len()).filter(|&i| !totals[i].is_zero()).collect();
    if order.len() < 2 {
        return None;
    }
    order.sort_by(|&a, &b| totals[b].cmp(&totals[a]));
    let mut view = View::default();
    let mut shares = Vec::with_capacity(order.len());
    for i in order {
        let taken = step(solve.market, &view, &solve.paths[active[i]], totals[i])?;
        view.commit(taken.states);
        shares.push((active[i], ratio(totals[i], solve.amount_in)));
    }
    assemble(solve, Strategy::FillAndSpill, shares)
}
