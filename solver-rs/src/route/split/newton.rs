//! Newton ascent of the gross output over allocations of a fixed amount.
//!
//! At an allocation the quadratic model (gradient and Hessian from `point.rs`) is maximised
//! subject to the amounts summing to amountIn and staying non-negative: an equality-constrained
//! Newton step on the routes that carry input, with routes that would go negative pinned at zero
//! and closed routes whose marginal rate beats the common one opened (an active-set step). The
//! exact value keeps the step if it improves, else the step is retried with more damping
//! (Levenberg–Marquardt). After convergence, directions the model sees as flat (route cycles
//! through shared pools) are resolved by trying their ends.

use crate::route::linear::{cholesky, solve};
use super::point::{evaluate, Point};
use super::Problem;
use crate::math::U256;

/// The search stops when the model promises less than this fraction of the output.
const CONVERGED_GAIN: f64 = 1e-9;
/// Newton iterations per ascent (each evaluates the routes once).
const MAX_ITERATIONS: usize = 40;
/// Damping of the first step, relative to the largest curvature; and its floor.
pub(super) const INITIAL_DAMPING: f64 = 1e-3;
const MIN_DAMPING: f64 = 1e-9;
/// Failed steps in a row (each retried with more damping) before the ascent stops.
const MAX_FAILURES: usize = 6;
/// Ridges tried (each 100× the last) before a model is given up as unusable.
const MAX_RIDGE_TRIES: usize = 40;
/// Curvature below this fraction of the largest counts as none (a flat direction).
const FLAT: f64 = 1e-7;
/// Allocations below this fraction of amountIn are dust: they go to the largest route.
const DUST: f64 = 1e-9;

/// The quadratic model at a point, in fractions of amountIn (so its numbers are tokenOut amounts).
pub(super) struct Model {
    n: usize,
    /// Current allocation as fractions of amountIn.
    share: Vec<f64>,
    gradient: Vec<f64>,
    hessian: Vec<f64>,
    pub(super) gross: f64,
}

/// A step of the allocation, in fractions of amountIn, and the gain the model predicts for it.
pub(super) struct Step {
    pub(super) delta: Vec<f64>,
    pub(super) predicted: f64,
}

/// Which routes a step may use.
pub(super) struct Rules<'a> {
    /// Routes that may carry input; open routes outside it are emptied by the first step.
    pub(super) allowed: &'a [bool],
    /// Whether closed routes may be opened.
    pub(super) open_more: bool,
    /// Per candidate, the candidates that share a pool with it (`structure.rs`).
    pub(super) sharing: &'a [Vec<usize>],
    /// No pool may appear in two routes (`enforcePoolDisjoint`).
    pub(super) disjoint: bool,
}

impl Rules<'_> {
    /// Whether opening `j` would put a pool in two routes while that is forbidden, given which
    /// candidates are open.
    pub(super) fn clashes(&self, j: usize, open: impl Fn(usize) -> bool) -> bool {
        self.disjoint && self.sharing[j].iter().any(|&k| open(k))
    }
}

impl Model {
    pub(super) fn at(problem: &Problem, point: &Point) -> Model {
        let derivatives = point.derivatives.as_ref().expect("a model needs derivatives");
        let n = point.alloc.len();
        let amount = f64::from(problem.amount_in);
        Model {
            n,
            share: point.alloc.iter().map(|a| f64::from(*a) / amount).collect(),
            gradient: derivatives.gradient.iter().map(|g| g * amount).collect(),
            hessian: derivatives.hessian.iter().map(|h| h * amount * amount).collect(),
            gross: f64::from(point.gross()),
        }
    }

    /// A basis of the directions over `routes` along which the model has no curvature (the null
    /// space of their Hessian block), by Gaussian elimination with full pivoting.
    fn flat_directions(&self, routes: &[usize]) -> Vec<Vec<f64>> {
        let (n, m) = (self.n, routes.len());
        let mut rows: Vec<Vec<f64>> = routes.iter().map(|&i| routes.iter().map(|&j| self.hessian[i * n + j]).collect()).collect();
        let scale = rows.iter().flatten().fold(0.0f64, |s, x| s.max(x.abs()));
        if scale == 0.0 || m < 2 {
            return Vec::new();
        }
        let mut pivots: Vec<(usize, usize)> = Vec::new();
        let mut used_row = vec![false; m];
        let mut used_col = vec![false; m];
        loop {
            let mut pivot: Option<(usize, usize, f64)> = None;
            for r in (0..m).filter(|&r| !used_row[r]) {
                for c in (0..m).filter(|&c| !used_col[c]) {
                    if pivot.is_none_or(|(_, _, v)| rows[r][c].abs() > v) {
                        pivot = Some((r, c, rows[r][c].abs()));
                    }
                }
            }
            let Some((r, c, value)) = pivot else { break };
            if value <= FLAT * scale {
                break;
            }
            used_row[r] = true;
            used_col[c] = true;
            let pivot_row = rows[r].clone();
            for (other, row) in rows.iter_mut().enumerate() {
                if other != r && row[c] != 0.0 {
                    let factor = row[c] / pivot_row[c];
                    row.iter_mut().zip(&pivot_row).for_each(|(x, p)| *x -= factor * p);
                }
            }
            pivots.push((r, c));
        }
        // Each unpivoted column is a free variable: set it to 1, solve the pivot columns.
        (0..m)
            .filter(|&c| !used_col[c])
            .map(|free| {
                let mut direction = vec![0.0; n];
                direction[routes[free]] = 1.0;
                for &(r, c) in &pivots {
                    direction[routes[c]] = -rows[r][free] / rows[r][c];
                }
                direction
            })
            .collect()
    }

    /// The marginal rate of candidate `i` (tokenOut per whole amountIn).
    pub(super) fn gradient(&self, i: usize) -> f64 {
        self.gradient[i]
    }

    /// The model's best step under `rules`: the Newton step on the open routes (plus the closed
    /// ones whose marginal rate beats the common one), with routes that `rules` closes emptied,
    /// cut short where it would drive a route below zero (that route then closes).
    pub(super) fn step(&self, rules: &Rules, damping: f64) -> Step {
        let n = self.n;
        let mut pinned: Vec<usize> = (0..n).filter(|&i| self.share[i] > 0.0 && !rules.allowed[i]).collect();
        let mut free: Vec<usize> = (0..n).filter(|&i| self.share[i] > 0.0 && rules.allowed[i]).collect();
        let mut considered: Vec<usize> = Vec::new();
        let mut delta = vec![0.0; n];
        for _ in 0..2 * n + 2 {
            delta.iter_mut().for_each(|d| *d = 0.0);
            let lambda = self.solve_free(&free, &pinned, damping, &mut delta);
            // Closed routes the solution would take input from stay closed.
            let refused: Vec<usize> = free.iter().copied().filter(|&j| self.share[j] == 0.0 && delta[j] < 0.0).collect();
            if !refused.is_empty() {
                free.retain(|j| !refused.contains(j));
                continue;
            }
            // When routes are being emptied, open routes the solution would drive negative go too.
            if !pinned.is_empty() {
                let negative: Vec<usize> = free.iter().copied().filter(|&i| self.share[i] + delta[i] < 0.0).collect();
                if !negative.is_empty() {
                    free.retain(|i| !negative.contains(i));
                    pinned.extend(negative);
                    continue;
                }
            }
            // Closed routes whose marginal rate beats the common one open, best first (each once).
            if !rules.open_more {
                break;
            }
            let mut openings: Vec<usize> = (0..n)
                .filter(|&j| {
                    rules.allowed[j]
                        && self.share[j] == 0.0
                        && !considered.contains(&j)
                        && self.gradient[j] > lambda * (1.0 + 1e-12)
                })
                .collect();
            openings.sort_by(|&a, &b| self.gradient[b].total_cmp(&self.gradient[a]).then(a.cmp(&b)));
            let before = free.len();
            for j in openings {
                considered.push(j);
                if !rules.clashes(j, |k| free.contains(&k)) {
                    free.push(j);
                }
            }
            if free.len() == before {
                break;
            }
        }
        for &i in &pinned {
            delta[i] = -self.share[i];
        }
        // Otherwise the step stops where the first open route reaches zero (it then closes).
        let reach = free
            .iter()
            .filter(|&&i| self.share[i] > 0.0 && self.share[i] + delta[i] < 0.0)
            .map(|&i| self.share[i] / -delta[i])
            .fold(1.0f64, f64::min);
        if reach < 1.0 {
            delta.iter_mut().for_each(|d| *d *= reach);
        }
        if delta.iter().any(|d| !d.is_finite()) {
            // A model with non-finite numbers proposes nothing.
            return Step { delta: vec![0.0; n], predicted: 0.0 };
        }
        let predicted: f64 = (0..n)
            .map(|i| delta[i] * (self.gradient[i] + 0.5 * (0..n).map(|j| self.hessian[i * n + j] * delta[j]).sum::<f64>()))
            .sum();
        if !predicted.is_finite() {
            return Step { delta: vec![0.0; n], predicted: 0.0 };
        }
        Step { delta, predicted }
    }

    /// Newton step for the `free` routes with the `pinned` ones emptied, written into `delta`;
    /// returns the common marginal rate (the multiplier of the budget constraint).
    fn solve_free(&self, free: &[usize], pinned: &[usize], damping: f64, delta: &mut [f64]) -> f64 {
        let n = self.n;
        let m = free.len();
        if m == 0 {
            return f64::NEG_INFINITY;
        }
        // Maximise gᵀΔ + ½ΔᵀHΔ with Σ Δ_free = released: (−H_ff) Δ = g_eff − λ1.
        let released: f64 = pinned.iter().map(|&i| self.share[i]).sum();
        let g_eff: Vec<f64> = free
            .iter()
            .map(|&i| self.gradient[i] - pinned.iter().map(|&k| self.hessian[i * n + k] * self.share[k]).sum::<f64>())
            .collect();
        let mut matrix = vec![0.0; m * m];
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                // Symmetrised: the model's Hessian is symmetric up to rounding.
                matrix[a * m + b] = -0.5 * (self.hessian[i * n + j] + self.hessian[j * n + i]);
            }
        }
        let scale = (0..m)
            .map(|a| matrix[a * m + a].abs())
            .fold(0.0, f64::max)
            .max(g_eff.iter().fold(0.0f64, |s, g| s.max(g.abs())) * 1e-9);
        let mut ridge = scale * damping.max(1e-12);
        let mut factor = None;
        for _ in 0..MAX_RIDGE_TRIES {
            let mut regularised = matrix.clone();
            (0..m).for_each(|a| regularised[a * m + a] += ridge);
            factor = cholesky(&regularised, m);
            if factor.is_some() {
                break;
            }
            ridge = if ridge == 0.0 { f64::MIN_POSITIVE } else { ridge * 100.0 };
        }
        // Only a model with non-finite numbers (amounts near 2^256) gets here: no step.
        let Some(factor) = factor else { return f64::NAN };
        let u = solve(&factor, m, &g_eff);
        let w = solve(&factor, m, &vec![1.0; m]);
        let lambda = (u.iter().sum::<f64>() - released) / w.iter().sum::<f64>();
        for (a, &i) in free.iter().enumerate() {
            delta[i] = u[a] - lambda * w[a];
        }
        lambda
    }
}

/// Applies `step` to `alloc`, in integers summing exactly to amountIn; dust goes to the largest
/// route.
pub(super) fn stepped(problem: &Problem, alloc: &[U256], step: &Step) -> Vec<U256> {
    let amount = f64::from(problem.amount_in);
    let mut next: Vec<U256> = alloc
        .iter()
        .zip(&step.delta)
        .map(|(a, d)| {
            let share = f64::from(*a) / amount + d;
            if share < DUST {
                U256::ZERO
            } else {
                U256::try_from((share * amount).round()).unwrap_or(problem.amount_in).min(problem.amount_in)
            }
        })
        .collect();
    balance(problem.amount_in, &mut next);
    next
}

/// Makes `alloc` sum to `amount` by adjusting its largest entry (the first on ties).
pub(super) fn balance(amount: U256, alloc: &mut [U256]) {
    let total = alloc.iter().fold(U256::ZERO, |s, a| s.saturating_add(*a));
    let largest = (0..alloc.len()).fold(0, |best, i| if alloc[i] > alloc[best] { i } else { best });
    if total < amount {
        alloc[largest] += amount - total;
    } else {
        let excess = total - amount;
        alloc[largest] = alloc[largest].saturating_sub(excess);
        if alloc.iter().fold(U256::ZERO, |s, a| s.saturating_add(*a)) != amount {
            // Only reachable if rounding overshot by more than the largest route: start over.
            alloc.iter_mut().for_each(|a| *a = U256::ZERO);
            alloc[largest] = amount;
        }
    }
}

/// Newton ascent from `start` under `rules`: the best point found, with derivatives, and whether
/// it converged before the deadline. Open routes that `rules` does not allow are emptied by the
/// first step; None if that cannot be filled (or `start` cannot be evaluated).
///
/// Steps are damped (Levenberg–Marquardt): routes that form cycles through the same pools leave
/// the model nearly flat along the cycle, where an undamped step would be unbounded. The damping
/// falls while the model predicts the exact gain well and rises when a step fails.
pub(super) fn ascend(problem: &Problem, order: &[usize], start: Point, rules: &Rules) -> Option<(Point, bool)> {
    let start = match start.derivatives {
        Some(_) => start,
        None => evaluate(problem, order, start.alloc, true)?,
    };
    let (mut current, converged) = newton(problem, order, start, rules)?;
    // Routes that share pools can form cycles (two routes in, two out of the same pools) along
    // which every pool keeps its flow: the model is flat there, while the exact value favours
    // the ends (fewer routes splitting a pool). From the converged point, both ends of every flat
    // direction are re-optimised with the route that closed there kept closed; the best wins.
    let n = current.alloc.len();
    let shared = (0..n).any(|i| rules.allowed[i] && rules.sharing[i].iter().any(|&j| rules.allowed[j]));
    if !converged || !shared || problem.reached(current.gross()) {
        return Some((current, converged));
    }
    let mut allowed = rules.allowed.to_vec();
    for _ in 0..n {
        let mut best: Option<(Point, Vec<bool>)> = None;
        for end in cycle_ends(problem, order, &current) {
            if problem.deadline.expired() {
                return Some((best.map_or(current, |(p, _)| p), false));
            }
            let mut closed = allowed.clone();
            (0..n).filter(|&i| !current.alloc[i].is_zero() && end.alloc[i].is_zero()).for_each(|i| closed[i] = false);
            let rules = Rules { allowed: &closed, ..*rules };
            let Some((point, _)) = newton(problem, order, end, &rules) else {
                continue;
            };
            if point.gross() > best.as_ref().map_or(current.gross(), |(b, _)| b.gross()) {
                best = Some((point, closed));
            }
        }
        match best {
            Some((point, closed)) => (current, allowed) = (point, closed),
            None => break,
        }
    }
    // `cycle_ends` stops at the deadline too: converged only if nothing was cut short.
    Some((current, problem.deadline.stopped_in().is_none()))
}

/// The ascent proper: damped Newton steps until the model promises nothing or the deadline.
fn newton(problem: &Problem, order: &[usize], start: Point, rules: &Rules) -> Option<(Point, bool)> {
    let mut current = start;
    let mut damping = INITIAL_DAMPING;
    let mut failures = 0;
    for _ in 0..MAX_ITERATIONS {
        let forced = current.open().any(|i| !rules.allowed[i]);
        if problem.deadline.expired() && !forced {
            return Some((current, false));
        }
        if !forced && problem.reached(current.gross()) {
            return Some((current, true));
        }
        let model = Model::at(problem, &current);
        let step = model.step(rules, damping);
        let enough = CONVERGED_GAIN * model.gross.max(1.0);
        if !forced && step.predicted <= enough {
            return Some((current, true));
        }
        let alloc = stepped(problem, &current.alloc, &step);
        let next = (alloc != current.alloc).then(|| evaluate(problem, order, alloc, true)).flatten();
        let gain = next.as_ref().map(|p| f64::from(p.gross()) - model.gross);
        match (next, gain) {
            (Some(next), Some(gain)) if forced || gain > 0.0 => {
                let ratio = gain / step.predicted;
                if ratio > 0.75 {
                    damping = (damping / 4.0).max(MIN_DAMPING);
                } else if ratio < 0.25 {
                    damping *= 4.0;
                }
                current = next;
                failures = 0;
                if !forced && gain <= enough {
                    return Some((current, true));
                }
            }
            _ if forced => return None,
            _ => {
                failures += 1;
                if failures > MAX_FAILURES {
                    return Some((current, true));
                }
                damping *= 8.0;
            }
        }
    }
    Some((current, true))
}

/// From a converged point: along each direction in which the model is flat (the open routes'
/// curvature matrix has a null space), the two ends where a route closes, each evaluated exactly
/// (with derivatives) if it can be filled.
fn cycle_ends(problem: &Problem, order: &[usize], point: &Point) -> Vec<Point> {
    let model = Model::at(problem, point);
    let open: Vec<usize> = point.open().collect();
    let mut ends = Vec::new();
    for direction in model.flat_directions(&open) {
        for sign in [1.0, -1.0] {
            if problem.deadline.expired() {
                return ends;
            }
            let delta: Vec<f64> = direction.iter().map(|d| d * sign).collect();
            let reach =
                (0..delta.len()).filter(|&i| delta[i] < 0.0).map(|i| model.share[i] / -delta[i]).fold(f64::INFINITY, f64::min);
            if !reach.is_finite() {
                continue;
            }
            let step = Step { delta: delta.iter().map(|d| d * reach).collect(), predicted: 0.0 };
            if let Some(end) = evaluate(problem, order, stepped(problem, &point.alloc, &step), true) {
                ends.push(end);
            }
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(share: Vec<f64>, gradient: Vec<f64>, hessian: Vec<f64>) -> Model {
        Model { n: share.len(), share, gradient, hessian, gross: 1e18 }
    }

    #[test]
    fn equalises_two_independent_routes() {
        // g_i(s) = g_i + h_i·Δ: from all on route 0 (rate 1.0) with route 1 at 1.2, the step is
        // where both rates meet: 1.0 + 2·d = 1.2 − 2·d → d = 0.05.
        let step = model(vec![1.0, 0.0], vec![1.0, 1.2], vec![-2.0, 0.0, 0.0, -2.0])
            .step(&Rules { allowed: &[true, true], open_more: true, sharing: &[vec![], vec![]], disjoint: false }, 0.0);
        assert!((step.delta[0] + 0.05).abs() < 1e-9 && (step.delta[1] - 0.05).abs() < 1e-9, "{:?}", step.delta);
        assert!(step.predicted > 0.0);
    }

    #[test]
    fn a_model_with_non_finite_numbers_proposes_nothing() {
        for (gradient, hessian) in [
            (vec![f64::NAN, 1.0], vec![-1.0, 0.0, 0.0, -1.0]),
            (vec![1.0, 2.0], vec![f64::NEG_INFINITY, 0.0, 0.0, f64::NAN]),
            (vec![f64::INFINITY, 1.0], vec![0.0; 4]),
        ] {
            let step = model(vec![0.5, 0.5], gradient, hessian)
                .step(&Rules { allowed: &[true, true], open_more: true, sharing: &[vec![], vec![]], disjoint: false }, INITIAL_DAMPING);
            assert!(step.delta.iter().all(|d| *d == 0.0), "{:?}", step.delta);
            assert_eq!(step.predicted, 0.0);
        }
    }
}
