//! The execution order of routes that share pools: a pool's state after one route's swap is the
//! next route's price, so the order changes (slightly) what the routes get.

use super::point::{evaluate, Point};
use super::Problem;

/// Components with more open routes than this keep their order (3! = 6 evaluations at most).
const MAX_REORDERED_ROUTES: usize = 3;

/// Every ordering of `items`, lexicographic in their positions.
pub(super) fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut all = Vec::new();
    for (k, &first) in items.iter().enumerate() {
        let rest: Vec<usize> =
            items.iter().enumerate().filter(|(i, _)| *i != k).map(|(_, &x)| x).collect();
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

/// Puts the open routes of each component in their best execution order for `point`'s allocation.
/// Returns the better point (if any order beat the current one); `order` is updated in place.
/// Past the deadline no more orders are tried; the best found so far is kept.
pub(super) fn reorder(
    problem: &Problem,
    components: &[Vec<usize>],
    order: &mut Vec<usize>,
    point: &Point,
) -> Option<Point> {
    let mut best: Option<Point> = None;
    for members in components {
        let open: Vec<usize> =
            members.iter().copied().filter(|&i| !point.alloc[i].is_zero()).collect();
        if open.len() < 2 || open.len() > MAX_REORDERED_ROUTES {
            continue;
        }
        // The positions the open routes hold in `order`, refilled in each permutation.
        let slots: Vec<usize> = (0..order.len()).filter(|&s| open.contains(&order[s])).collect();
        let kept = order.clone();
        let mut best_order = kept.clone();
        for perm in permutations(&open).into_iter().skip(1) {
            if problem.budget.expired() {
                break;
            }
            let mut trial = kept.clone();
            for (slot, route) in slots.iter().zip(perm) {
                trial[*slot] = route;
            }
            let Some(candidate) = evaluate(problem, &trial, point.alloc.clone(), false) else {
                continue;
            };
            if candidate.value > best.as_ref().map_or(point.value, |b| b.value) {
                best = Some(candidate);
                best_order = trial;
            }
        }
        *order = best_order;
    }
    best
}

#[cfg(test)]
#[path = "order_tests.rs"]
mod tests;
