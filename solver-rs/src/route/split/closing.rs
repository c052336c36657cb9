//! Closing routes whose gas outweighs what they add, and the estimate that skips hopeless trials.

use super::super::net::Net;
use super::search::Search;
use super::{SLOPE_STEP_SHIFT, TRIAL_STEP_SHIFT};
use crate::math::U256;

impl Search<'_, '_> {
    /// From the current (refined) allocation, closes routes while that pays: every open route is
    /// tried closed (its input handed to the largest other route, the rest re-refined with the
    /// closed route kept shut), and the best closure is kept. Taking the first closure that helps
    /// can lock in the wrong set of routes when routes share pools. Returns the best allocation.
    pub(super) fn close_routes(&mut self, converged: &mut bool) -> (Net, Vec<U256>) {
        let n = self.problem.paths.len();
        let (mut best_value, mut best_alloc) = (self.total, self.alloc.clone());
        self.closed.iter_mut().for_each(|c| *c = false);
        while *converged {
            let open: Vec<usize> = (0..n).filter(|&i| !best_alloc[i].is_zero()).collect();
            if open.len() < 2 {
                break;
            }
            let mut round_best: Option<(Net, Vec<U256>, usize)> = None;
            if !self.set(best_alloc.clone()) {
                break;
            }
            let slopes = self.marginal_rates();
            for &closed in &open {
                if self.problem.deadline.expired() {
                    *converged = false;
                    break;
                }
                if !self.set(best_alloc.clone()) || self.closure_cannot_pay(closed, &slopes) {
                    continue;
                }
                let receiver = open
                    .iter()
                    .copied()
                    .filter(|&i| i != closed)
                    .max_by(|&a, &b| best_alloc[a].cmp(&best_alloc[b]).then(b.cmp(&a)))
                    .expect("two open routes");
                let mut alloc = best_alloc.clone();
                let moved = std::mem::replace(&mut alloc[closed], U256::ZERO);
                alloc[receiver] += moved;
                if !self.set(alloc) {
                    continue;
                }
                let was_closed = std::mem::replace(&mut self.closed[closed], true);
                *converged &= self.refine(TRIAL_STEP_SHIFT);
                self.closed[closed] = was_closed;
                if self.total > round_best.as_ref().map_or(best_value, |(v, _, _)| *v) {
                    round_best = Some((self.total, self.alloc.clone(), closed));
                }
            }
            match round_best {
                Some((value, alloc, closed)) => {
                    (best_value, best_alloc) = (value, alloc);
                    // Keep it closed in later rounds, so they cannot undo this one.
                    self.closed[closed] = true;
                }
                None => break,
            }
        }
        self.closed.iter_mut().for_each(|c| *c = false);
        (best_value, best_alloc)
    }

    /// Per candidate, an estimate of the output per unit of input it would add at the current
    /// allocation: the backward slope over a small step for open routes (at least the derivative,
    /// by concavity), the forward slope for closed ones. Gross output only; None if infeasible.
    pub(super) fn marginal_rates(&self) -> Vec<Option<f64>> {
        let step = (self.problem.amount_in >> SLOPE_STEP_SHIFT).max(U256::from(1));
        (0..self.problem.paths.len())
            .map(|j| {
                let c = self.structure.component_of[j];
                let here = f64::from(self.values[c].gross);
                if self.alloc[j].is_zero() {
                    self.shifted(j, step, true).map(|v| (f64::from(v.gross) - here) / f64::from(step))
                } else {
                    let back = step.min(self.alloc[j]);
                    self.shifted(j, back, false).map(|v| (here - f64::from(v.gross)) / f64::from(back))
                }
            })
            .collect()
    }

    /// Whether closing `i` cannot help: what `i` adds now exceeds the gas it costs plus the most its
    /// input could earn elsewhere (its amount at the best marginal rate of any other candidate,
    /// with 1% slack). A pruning estimate: it only skips trials that could not pay.
    pub(super) fn closure_cannot_pay(&self, i: usize, slopes: &[Option<f64>]) -> bool {
        let c = self.structure.component_of[i];
        let Some(without) = self.shifted(i, self.alloc[i], false) else { return false };
        let contribution = f64::from(self.values[c].gross) - f64::from(without.gross);
        let gas_saved = f64::from(self.values[c].cost) - f64::from(without.cost);
        let best_rate = (0..slopes.len()).filter(|&j| j != i).filter_map(|j| slopes[j]).fold(0.0, f64::max);
        contribution > gas_saved + f64::from(self.alloc[i]) * best_rate * 1.01
    }
}
