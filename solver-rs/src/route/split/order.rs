//! The execution order of routes that share pools.

use super::super::net::Net;
use super::search::{minus, Search};

/// Components with more open routes than this keep their order (5! = 120 evaluations at most).
const MAX_REORDERED_ROUTES: usize = 5;
/// Components with at most this many open routes try every order, each with a trial refinement
/// (3! = 6); a winning order is then refined to the finest step.
pub(super) const MAX_REFINED_ORDERS_ROUTES: usize = 3;

/// Every ordering of `items`, lexicographic in their positions.
pub(super) fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (k, &first) in items.iter().enumerate() {
        let rest: Vec<usize> = items.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, &x)| x).collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

impl Search<'_, '_> {
    /// Puts each component's open routes in their best execution order for the current
    /// allocation. Returns whether any order changed.
    pub(super) fn reorder(&mut self) -> bool {
        let mut changed = false;
        for c in 0..self.structure.members.len() {
            let members = self.structure.members[c].clone();
            let (open, idle): (Vec<usize>, Vec<usize>) = members.iter().partition(|&&i| !self.alloc[i].is_zero());
            if open.len() < 2 || open.len() > MAX_REORDERED_ROUTES {
                continue;
            }
            let mut best: Option<(Net, Vec<usize>)> = None;
            for perm in permutations(&open) {
                let order: Vec<usize> = perm.into_iter().chain(idle.iter().copied()).collect();
                self.structure.members[c] = order.clone();
                if let Some(value) = self.component_value(c, &self.alloc) {
                    if best.as_ref().map_or(value > self.values[c], |(b, _)| value > *b) {
                        best = Some((value, order));
                    }
                }
            }
            match best {
                Some((value, order)) => {
                    self.total = minus(self.total, self.values[c]).plus(value);
                    self.values[c] = value;
                    self.structure.members[c] = order;
                    changed = true;
                }
                None => self.structure.members[c] = members,
            }
        }
        changed
    }
}
