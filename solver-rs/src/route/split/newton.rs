//! Newton ascent of the gross output over allocations of a fixed amount.
//!
//! At an allocation the quadratic model (gradient and Hessian from `point.rs`) is maximised
//! subject to the amounts summing to amountIn and staying non-negative: an equality-constrained
//! Newton step on the routes that carry input, with routes that would go negative pinned at zero
//! and closed routes whose marginal rate beats the common one opened (an active-set step). The
//! exact value keeps the step if it improves, else the step is retried with more damping
//! (Levenberg–Marquardt). Where steps on the model's gradient fail and the ascent stalls short of
//! the bound, the gradient is measured instead (one exact evaluation per open route, `measured`).
//! After convergence, directions the model sees as flat (route cycles through shared pools) are
//! resolved by trying their ends.

use super::point::{evaluate, evaluate_or_blame, Infeasible, Point};
use super::Problem;
use crate::market::{Hop, PoolIdx};
use crate::math::U256;
use crate::route::clock::Stretch;
use crate::route::gas_cap::MAX_PLAN_GAS;
use crate::route::linear::{cholesky_into, entry, solve_into};
use crate::route::path::Path;
use std::sync::Arc;

/// The search stops when the model promises less than this fraction of the output, or less than
/// [`TICK`].
const CONVERGED_GAIN: f64 = 1e-9;
/// One raw unit of tokenOut: a plan's output is whole units, so a step the model promises less
/// than one unit is not worth an exact evaluation. On a small trade the fraction above is below a
/// unit (10⁻⁹ of the 10,000-pool 2-hop 0.01× trade's 10⁸ units), and each ascent went on with
/// steps promising a fraction of a unit, failed and damped until [`MAX_FAILURES`], then measured:
/// 49 evaluations with derivatives and 89 without per quote, most of its optimizer's 0.87 ms, for
/// no gain on any plan measured (docs/solver-optimizer.md, *The ascent's tick*).
const TICK: f64 = 1.0;
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
/// How much a step lowers the flow into a pool at its limit, as a fraction of that flow.
const LIMIT_BACKOFF: f64 = 1e-6;
/// Halvings of a step that sends a pool more than it can take.
const FEASIBLE_HALVINGS: usize = 12;
/// A cycle's end that pays less than the point by more than this fraction (or than the point pays
/// less than the bound) is not re-optimised.
const FLAT_END_LOSS: f64 = 1e-4;
/// Allocations below this fraction of amountIn are dust: they go to the largest route.
const DUST: f64 = 1e-9;

/// The quadratic model at a point, in fractions of amountIn (so its numbers are tokenOut amounts).
pub(super) struct Model {
    n: usize,
    /// Current allocation as fractions of amountIn.
    share: Vec<f64>,
    /// The open routes (a positive share), ascending: a step writes only these and the closed
    /// routes it considers opening, so its passes run over them rather than every candidate
    /// (at 10,000 pools a 2-hop split has about 170 candidates, of which a dozen or so are open).
    open: Vec<usize>,
    gradient: Vec<f64>,
    /// The point's Hessian in raw units (shared with it, not copied), and amountIn, the factor
    /// that scales each entry twice into the model's units ([`Model::hessian`]).
    hessian: Arc<[f64]>,
    amount: f64,
    /// Per pool at the end of its liquidity: how much of each candidate's input reaches it (its
    /// flow may fall, not rise).
    limits: Vec<Vec<f64>>,
    /// The pool and direction of each limit.
    limited: Vec<(PoolIdx, u8)>,
    /// Per limit, its largest coefficient's size (the scale of [`Model::revise`]'s test).
    limit_scale: Vec<f64>,
    /// Whether every gradient, Hessian and limit entry is finite: then a step's sums run over the
    /// routes it moves only (a route it leaves alone adds exactly zero), which is most of a
    /// 10,000-pool split's pruning otherwise (hundreds of candidates, a few open routes).
    finite: bool,
    /// Routes whose input may fall but not rise: through a limited pool where holding the
    /// pool's flow (a linear model of it) still sent it more than it takes.
    capped: Vec<bool>,
    /// Gas the plan may still add before its transaction outgrows the cap (`route/gas_cap.rs`),
    /// and what opening each candidate adds before any crossing.
    gas_room: f64,
    opening_gas: Vec<f64>,
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

/// The routes of a step's active-set method: emptied (`pinned`), solved for (`free`), the limits
/// held at their pool's end (`active`, indexes into the model's limits), and the closed routes
/// already considered for opening.
#[derive(Default)]
struct ActiveSet {
    pinned: Vec<usize>,
    free: Vec<usize>,
    active: Vec<usize>,
    considered: Vec<usize>,
}

/// The buffers of [`Model::step_into`], kept from one step to the next: the pruning makes about a
/// hundred model steps per 10,000-pool split quote, each a few active-set solves, and fresh
/// buffers for each solve (about fifteen) were most of the steps' time, in the allocator.
#[derive(Default)]
pub(super) struct Scratch {
    sets: ActiveSet,
    /// The routes a step moves ([`Model::moved`]).
    moved: Vec<usize>,
    /// [`Model::solve_free`]'s: the effective gradient, the constraints' rows (k × m, row-major)
    /// and targets, the matrix and its factor (with the regularised copy factored), the solves'
    /// results (u, and w: k × m) and scratch, the Schur complement, its factor and right-hand
    /// side, and the multipliers.
    g_eff: Vec<f64>,
    rows: Vec<f64>,
    targets: Vec<f64>,
    matrix: Vec<f64>,
    regularised: Vec<f64>,
    factor: Vec<f64>,
    u: Vec<f64>,
    w: Vec<f64>,
    y: Vec<f64>,
    schur: Vec<f64>,
    schur_factor: Vec<f64>,
    rhs: Vec<f64>,
    multipliers: Vec<f64>,
}

impl Model {
    pub(super) fn at(problem: &Problem, point: &Point) -> Model {
        let derivatives = point.derivatives.as_ref().expect("a model needs derivatives");
        let n = point.alloc.len();
        let amount = f64::from(problem.amount_in);
        let gradient: Vec<f64> = derivatives.gradient.iter().map(|g| g * amount).collect();
        let finite = derivatives.hessian_finite
            && gradient.iter().chain(derivatives.limits.iter().flatten()).all(|x| x.is_finite());
        let share: Vec<f64> = point.alloc.iter().map(|a| f64::from(*a) / amount).collect();
        Model {
            n,
            open: (0..n).filter(|&i| share[i] > 0.0).collect(),
            share,
            gradient,
            hessian: Arc::clone(&derivatives.hessian),
            amount,
            limit_scale: derivatives
                .limits
                .iter()
                .map(|limit| limit.iter().fold(0.0f64, |s, a| s.max(a.abs())))
                .collect(),
            finite,
            limits: derivatives.limits.clone(),
            limited: derivatives.limited.clone(),
            capped: vec![false; n],
            gas_room: MAX_PLAN_GAS as f64 - point.plan_gas(problem) as f64,
            opening_gas: problem
                .paths
                .iter()
                .map(|p| problem.gas_cap.opening_gas(problem.market, p) as f64)
                .collect(),
            gross: f64::from(point.gross()),
        }
    }

    /// Whether `hop`'s pool and direction is at its limit here and its routes are not capped yet.
    fn may_cap(&self, paths: &[Path], hop: Hop) -> bool {
        self.limited.contains(&(hop.pool, hop.token_in))
            && (0..self.n).any(|i| !self.capped[i] && paths[i].hops.contains(&hop))
    }

    /// Caps every route through `hop` (its pool in its direction).
    fn cap_through(&mut self, paths: &[Path], hop: Hop) {
        (0..self.n)
            .filter(|&i| {
                paths[i].hops.iter().any(|h| h.pool == hop.pool && h.token_in == hop.token_in)
            })
            .for_each(|i| self.capped[i] = true);
    }

    /// A basis of the directions over `routes` along which the model has no curvature (the null
    /// space of their Hessian block), by Gaussian elimination with full pivoting.
    fn flat_directions(&self, routes: &[usize]) -> Vec<Vec<f64>> {
        let (n, m) = (self.n, routes.len());
        let mut rows: Vec<Vec<f64>> =
            routes.iter().map(|&i| routes.iter().map(|&j| self.hessian(i, j)).collect()).collect();
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

    /// Entry (`i`, `j`) of the Hessian in the model's units (tokenOut per whole amountIn squared).
    fn hessian(&self, i: usize, j: usize) -> f64 {
        self.hessian[entry(i, j, self.n)] * self.amount * self.amount
    }

    /// The marginal rate of candidate `i` (tokenOut per whole amountIn).
    pub(super) fn gradient(&self, i: usize) -> f64 {
        self.gradient[i]
    }

    /// The model's best step under `rules`: the Newton step on the open routes (plus the closed
    /// ones whose marginal rate beats the common one), with routes that `rules` closes emptied,
    /// no more flow into a pool at the end of its liquidity, cut short where it would drive a
    /// route below zero (that route then closes).
    ///
    /// An active-set method: solve on the current sets, revise them where the solution breaks a
    /// rule (`revise`), and once it breaks none, open the closed routes that would gain
    /// (`open_routes`) and solve again, until nothing changes.
    #[cfg(test)]
    pub(super) fn step(&self, rules: &Rules, damping: f64) -> Step {
        let mut delta = Vec::new();
        let predicted = self.step_into(rules, damping, &mut delta, &mut Scratch::default());
        Step { delta, predicted }
    }

    /// [`Model::step`] written into `delta` (resized to the candidates) with `scratch`'s
    /// buffers, returning its predicted gain: the pruning predicts every open route's closure
    /// with one set of buffers, allocating nothing once they have grown.
    pub(super) fn step_into(
        &self,
        rules: &Rules,
        damping: f64,
        delta: &mut Vec<f64>,
        scratch: &mut Scratch,
    ) -> f64 {
        // Its passes run unchecked: the deadline is checked between steps.
        let _stretch = Stretch::begin();
        let n = self.n;
        let sets = &mut scratch.sets;
        sets.pinned.clear();
        sets.pinned.extend(self.open.iter().copied().filter(|&i| !rules.allowed[i]));
        sets.free.clear();
        sets.free.extend(self.open.iter().copied().filter(|&i| rules.allowed[i]));
        sets.active.clear();
        sets.considered.clear();
        delta.clear();
        delta.resize(n, 0.0);
        for _ in 0..n.saturating_add(self.limits.len()).saturating_mul(2).saturating_add(2) {
            // Only the open routes and those considered for opening are ever written (`free` and
            // `pinned` are drawn from them): the rest are still zero.
            let sets = &scratch.sets;
            self.open.iter().chain(&sets.considered).for_each(|&i| delta[i] = 0.0);
            if !self.solve_free(scratch, damping, delta) {
                break;
            }
            let Scratch { sets, multipliers, moved, .. } = &mut *scratch;
            for &i in &sets.pinned {
                delta[i] = -self.share[i];
            }
            if self.revise(sets, delta, multipliers, moved) {
                continue;
            }
            if !rules.open_more || !self.open_routes(rules, sets, multipliers) {
                break;
            }
        }
        self.cut_at_first_empty(&scratch.sets.free, delta);
        let predicted = match delta.iter().all(|d| d.is_finite()) {
            true => self.predicted_gain(delta, &scratch.sets.considered, &mut scratch.moved),
            false => f64::NAN,
        };
        if !predicted.is_finite() {
            // A model with non-finite numbers proposes nothing.
            delta.iter_mut().for_each(|d| *d = 0.0);
            return 0.0;
        }
        predicted
    }

    /// Revises the sets where the solution `delta` (with its `multipliers`) breaks a rule, one
    /// kind of break at a time; returns whether anything changed (then the step solves again).
    fn revise(
        &self,
        sets: &mut ActiveSet,
        delta: &[f64],
        multipliers: &[f64],
        moved: &mut Vec<usize>,
    ) -> bool {
        let ActiveSet { pinned, free, active, considered } = sets;
        // Closed routes the solution would take input from stay closed.
        let refused: Vec<usize> =
            free.iter().copied().filter(|&j| self.share[j] == 0.0 && delta[j] < 0.0).collect();
        if !refused.is_empty() {
            free.retain(|j| !refused.contains(j));
            return true;
        }
        // Capped routes the solution would give more keep what they have.
        let held: Vec<usize> =
            free.iter().copied().filter(|&j| self.capped[j] && delta[j] > 0.0).collect();
        if !held.is_empty() {
            free.retain(|j| !held.contains(j));
            return true;
        }
        // A limit the solution would lift (its multiplier negative) is let go; a pool at its
        // limit the solution would send more is held where it is.
        let lifted: Vec<usize> = active
            .iter()
            .zip(&multipliers[1..])
            .filter(|(_, m)| **m < 0.0)
            .map(|(u, _)| *u)
            .collect();
        if !lifted.is_empty() {
            active.retain(|u| !lifted.contains(u));
            return true;
        }
        let scale = delta.iter().fold(0.0f64, |s, d| s.max(d.abs()));
        self.moved(delta, considered, moved);
        let exceeded: Vec<usize> = (0..self.limits.len())
            .filter(|u| !active.contains(u))
            .filter(|&u| {
                let limit = &self.limits[u];
                moved.iter().map(|&i| limit[i] * delta[i]).sum::<f64>()
                    > 1e-12 * scale * self.limit_scale[u]
            })
            .collect();
        if !exceeded.is_empty() {
            active.extend(exceeded);
            return true;
        }
        // When routes are being emptied, open routes the solution would drive negative go too.
        if !pinned.is_empty() {
            let negative: Vec<usize> =
                free.iter().copied().filter(|&i| self.share[i] + delta[i] < 0.0).collect();
            if !negative.is_empty() {
                free.retain(|i| !negative.contains(i));
                pinned.extend(negative);
                return true;
            }
        }
        false
    }

    /// Opens the closed routes whose marginal rate (less what their flow into held pools costs)
    /// beats the common one, best first, each considered once, while they fit the gas cap and
    /// `rules`; returns whether any opened.
    fn open_routes(&self, rules: &Rules, sets: &mut ActiveSet, multipliers: &[f64]) -> bool {
        let ActiveSet { free, active, considered, .. } = sets;
        let rate = |j: usize| {
            self.gradient[j]
                - active
                    .iter()
                    .zip(&multipliers[1..])
                    .map(|(&u, m)| m * self.limits[u][j])
                    .sum::<f64>()
        };
        let lambda = multipliers[0];
        let mut openings: Vec<usize> = (0..self.n)
            .filter(|&j| {
                rules.allowed[j]
                    && !self.capped[j]
                    && self.share[j] == 0.0
                    && !considered.contains(&j)
                    && rate(j) > lambda * (1.0 + 1e-12)
            })
            .collect();
        openings.sort_by(|&a, &b| rate(b).total_cmp(&rate(a)).then(a.cmp(&b)));
        let before = free.len();
        // Routes opened by this step, and whether each still fits the gas cap.
        let mut room = self.gas_room
            - free
                .iter()
                .filter(|&&i| self.share[i] == 0.0)
                .map(|&i| self.opening_gas[i])
                .sum::<f64>();
        for j in openings {
            considered.push(j);
            if !rules.clashes(j, |k| free.contains(&k)) && self.opening_gas[j] <= room {
                room -= self.opening_gas[j];
                free.push(j);
            }
        }
        free.len() > before
    }

    /// Scales `delta` down to where the first open route among `free` reaches zero (it then
    /// closes), if the full step would drive one below.
    fn cut_at_first_empty(&self, free: &[usize], delta: &mut [f64]) {
        let reach = free
            .iter()
            .filter(|&&i| self.share[i] > 0.0 && self.share[i] + delta[i] < 0.0)
            .map(|&i| self.share[i] / -delta[i])
            .fold(1.0f64, f64::min);
        if reach < 1.0 {
            delta.iter_mut().for_each(|d| *d *= reach);
        }
    }

    /// The gain the quadratic model predicts for `delta`.
    fn predicted_gain(&self, delta: &[f64], considered: &[usize], moved: &mut Vec<usize>) -> f64 {
        self.moved(delta, considered, moved);
        moved
            .iter()
            .map(|&i| {
                delta[i]
                    * (self.gradient[i]
                        + 0.5 * moved.iter().map(|&j| self.hessian(i, j) * delta[j]).sum::<f64>())
            })
            .sum()
    }

    /// The routes `delta` moves, ascending, into `moved`; every route when the model has a
    /// non-finite number (a zero move times it is not zero then). A step moves only open routes
    /// and the closed ones it `considered` opening (disjoint lists), so only those are looked at.
    fn moved(&self, delta: &[f64], considered: &[usize], moved: &mut Vec<usize>) {
        moved.clear();
        if !self.finite {
            moved.extend(0..self.n);
            return;
        }
        moved.extend(self.open.iter().chain(considered).copied().filter(|&i| delta[i] != 0.0));
        if !considered.is_empty() {
            moved.sort_unstable();
        }
    }

    /// Newton step for the sets' `free` routes with the `pinned` ones emptied and the flow into
    /// each `active` limit's pool unchanged, written into `delta` (free routes only), with the
    /// multipliers in `scratch.multipliers`: the budget constraint's (the common marginal rate)
    /// first, then each active limit's. False for a model with non-finite numbers (amounts near
    /// 2^256) or no free route.
    fn solve_free(&self, scratch: &mut Scratch, damping: f64, delta: &mut [f64]) -> bool {
        let Scratch {
            sets: ActiveSet { free, pinned, active, .. },
            g_eff,
            rows,
            targets,
            matrix,
            regularised,
            factor,
            u,
            w,
            y,
            schur,
            schur_factor,
            rhs,
            multipliers,
            ..
        } = scratch;
        let m = free.len();
        if m == 0 {
            return false;
        }
        // Maximise gᵀΔ + ½ΔᵀHΔ subject to A Δ = b: the budget (Σ Δ_free = released) and each
        // active limit (its pool's inflow changes by nothing: what the pinned routes take out
        // may come back). (−H_ff) Δ = g_eff − Aᵀμ, with μ from the Schur complement A C⁻¹ Aᵀ.
        let released: f64 = pinned.iter().map(|&i| self.share[i]).sum();
        g_eff.clear();
        g_eff.extend(free.iter().map(|&i| {
            self.gradient[i]
                - pinned.iter().map(|&k| self.hessian(i, k) * self.share[k]).sum::<f64>()
        }));
        rows.clear();
        rows.resize(m, 1.0);
        targets.clear();
        targets.push(released);
        for &u in active.iter() {
            let limit = &self.limits[u];
            rows.extend(free.iter().map(|&i| limit[i]));
            // A little less than it takes now: the constraint is linear and the routes' rates to
            // the pool are not, so holding the flow exactly would overshoot by second-order terms
            // (and a drained pool refuses a single unit more); halving a step halves the backoff
            // but quarters the overshoot.
            let flow: f64 = limit.iter().zip(&self.share).map(|(a, s)| a * s).sum();
            targets.push(
                pinned.iter().map(|&k| limit[k] * self.share[k]).sum::<f64>()
                    - LIMIT_BACKOFF * flow,
            );
        }
        matrix.clear();
        matrix.resize(m.saturating_mul(m), 0.0);
        for (a, &i) in free.iter().enumerate() {
            for (b, &j) in free.iter().enumerate() {
                // Symmetrised: the model's Hessian is symmetric up to rounding.
                matrix[entry(a, b, m)] = -0.5 * (self.hessian(i, j) + self.hessian(j, i));
            }
        }
        let scale = (0..m)
            .map(|a| matrix[entry(a, a, m)].abs())
            .fold(0.0, f64::max)
            .max(g_eff.iter().fold(0.0f64, |s, g| s.max(g.abs())) * 1e-9);
        if !regularised_cholesky(matrix, m, scale * damping.max(1e-12), regularised, factor) {
            return false;
        }
        let k = targets.len();
        u.clear();
        u.resize(m, 0.0);
        solve_into(factor, m, g_eff, y, u);
        w.clear();
        w.resize(k.saturating_mul(m), 0.0);
        for (row, w_row) in rows.chunks_exact(m).zip(w.chunks_exact_mut(m)) {
            solve_into(factor, m, row, y, w_row);
        }
        let dot = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(a, b)| a * b).sum::<f64>();
        let row = |r: usize| &rows[r.saturating_mul(m)..r.saturating_add(1).saturating_mul(m)];
        let w_row = |r: usize| &w[r.saturating_mul(m)..r.saturating_add(1).saturating_mul(m)];
        schur.clear();
        schur.resize(k.saturating_mul(k), 0.0);
        for r in 0..k {
            for c in 0..k {
                schur[entry(r, c, k)] = dot(row(r), w_row(c));
            }
        }
        rhs.clear();
        rhs.extend((0..k).map(|r| dot(row(r), u) - targets[r]));
        // Limits can repeat the budget (a pool every route crosses first): a tiny ridge keeps
        // the complement solvable; the dependent constraints then share one multiplier.
        let schur_scale = (0..k).map(|r| schur[entry(r, r, k)].abs()).fold(0.0, f64::max);
        if !regularised_cholesky(schur, k, schur_scale * 1e-12, regularised, schur_factor) {
            return false;
        }
        multipliers.clear();
        multipliers.resize(k, 0.0);
        solve_into(schur_factor, k, rhs, y, multipliers);
        for (a, &i) in free.iter().enumerate() {
            delta[i] = u[a] - (0..k).map(|r| multipliers[r] * w_row(r)[a]).sum::<f64>();
        }
        true
    }
}

/// The Cholesky factor of `matrix` (n × n) plus `ridge` on its diagonal, the ridge raised 100×
/// at a time until it factors, written into `factor` (`regularised` holds the matrix with the
/// ridge); false if it never factors (non-finite numbers).
fn regularised_cholesky(
    matrix: &[f64],
    n: usize,
    ridge: f64,
    regularised: &mut Vec<f64>,
    factor: &mut Vec<f64>,
) -> bool {
    let mut ridge = ridge;
    for _ in 0..MAX_RIDGE_TRIES {
        regularised.clear();
        regularised.extend_from_slice(matrix);
        (0..n).for_each(|a| regularised[entry(a, a, n)] += ridge);
        if cholesky_into(regularised, n, factor) {
            return true;
        }
        ridge = if ridge == 0.0 { f64::MIN_POSITIVE } else { ridge * 100.0 };
    }
    false
}

/// Applies `step` to `alloc`, in integers summing exactly to amountIn. Each route moves by its
/// step rounded to an integer (a route the step leaves alone keeps its amount to the unit: a pool
/// drained to its last unit takes no more); what rounding leaves over goes to the largest route the
/// step moves.
pub(super) fn stepped(problem: &Problem, alloc: &[U256], step: &Step) -> Vec<U256> {
    let amount = f64::from(problem.amount_in);
    let next: Vec<U256> = alloc
        .iter()
        .zip(&step.delta)
        .map(|(a, d)| {
            if *d == 0.0 {
                return *a;
            }
            if f64::from(*a) / amount + d < DUST {
                return U256::ZERO;
            }
            let change = (d * amount).round();
            let units = U256::try_from(change.abs()).unwrap_or(problem.amount_in);
            if change >= 0.0 {
                a.saturating_add(units).min(problem.amount_in)
            } else {
                a.saturating_sub(units)
            }
        })
        .collect();
    let moved: Vec<bool> =
        step.delta.iter().zip(&next).map(|(d, a)| *d != 0.0 && !a.is_zero()).collect();
    balanced_among(problem.amount_in, next, &moved)
}

/// `alloc` made to sum to `amount` by its largest entry among `eligible` (any entry if none is).
fn balanced_among(amount: U256, mut alloc: Vec<U256>, eligible: &[bool]) -> Vec<U256> {
    let largest =
        (0..alloc.len()).filter(|&i| eligible[i]).fold(None, |best: Option<usize>, i| match best {
            Some(b) if alloc[b] >= alloc[i] => Some(b),
            _ => Some(i),
        });
    let Some(largest) = largest else {
        balance(amount, &mut alloc);
        return alloc;
    };
    // The total is checked, not saturated: a saturated total would understate the excess of
    // entries that sum past 2^256 − 1 (steps near the top of U256), and the allocation would stay
    // over `amount`. Past it, `balance` rebuilds the allocation. Each difference below is taken in
    // the order the comparison before it puts the two.
    let Some(total) = checked_total(&alloc) else {
        balance(amount, &mut alloc);
        return alloc;
    };
    if total < amount {
        alloc[largest] = alloc[largest].saturating_add(amount.saturating_sub(total));
    } else if total.saturating_sub(amount) <= alloc[largest] {
        alloc[largest] = alloc[largest].saturating_sub(total.saturating_sub(amount));
    } else {
        balance(amount, &mut alloc);
    }
    alloc
}

/// Makes `alloc` sum to `amount` by adjusting its largest entry (the first on ties).
pub(super) fn balance(amount: U256, alloc: &mut [U256]) {
    let largest = (0..alloc.len()).fold(0, |best, i| if alloc[i] > alloc[best] { i } else { best });
    match checked_total(alloc) {
        // Entries are at most the total, so the largest plus what is missing is at most `amount`.
        Some(total) if total < amount => {
            alloc[largest] = alloc[largest].saturating_add(amount.saturating_sub(total))
        }
        Some(total) => alloc[largest] = alloc[largest].saturating_sub(total.saturating_sub(amount)),
        None => {}
    }
    if checked_total(alloc) != Some(amount) {
        // Only reachable if rounding overshot by more than the largest route, or the entries sum
        // past 2^256 − 1: start over.
        alloc.iter_mut().for_each(|a| *a = U256::ZERO);
        alloc[largest] = amount;
    }
}

/// The sum of `alloc`; None past 2^256 − 1.
pub(super) fn checked_total(alloc: &[U256]) -> Option<U256> {
    alloc.iter().try_fold(U256::ZERO, |sum, a| sum.checked_add(*a))
}

/// Newton ascent from `start` under `rules`: the best point found, with derivatives, and whether
/// it converged before the deadline. Open routes that `rules` does not allow are emptied by the
/// first step; None if that cannot be filled (or `start` cannot be evaluated).
///
/// Steps are damped (Levenberg–Marquardt): routes that form cycles through the same pools leave
/// the model nearly flat along the cycle, where an undamped step would be unbounded. The damping
/// falls while the model predicts the exact gain well and rises when a step fails.
pub(super) fn ascend(
    problem: &Problem,
    order: &[usize],
    start: Point,
    rules: &Rules,
) -> Option<(Point, bool)> {
    let start = match start.derivatives {
        Some(_) => start,
        None => evaluate(problem, order, start.alloc, true)?,
    };
    let (mut current, converged) =
        newton(problem, order, start, rules, Gradient::MeasuredIfModelFails)?;
    // Routes that share pools can form cycles (two routes in, two out of the same pools) along
    // which every pool keeps its flow: the model is flat there, while the exact value favours
    // the ends (fewer routes splitting a pool). From the converged point, both ends of every flat
    // direction are re-optimised with the route that closed there kept closed; the best wins.
    let n = current.alloc.len();
    let shared =
        (0..n).any(|i| rules.allowed[i] && rules.sharing[i].iter().any(|&j| rules.allowed[j]));
    if !converged || !shared || problem.reached(current.gross()) {
        return Some((current, converged));
    }
    let mut allowed = rules.allowed.to_vec();
    for _ in 0..n {
        let mut best: Option<(Point, Vec<bool>)> = None;
        for end in cycle_ends(problem, order, &current) {
            if problem.budget.expired() {
                return Some((best.map_or(current, |(p, _)| p), false));
            }
            // Along a truly flat direction the ends pay what the point pays, to the fee compounding
            // the model cannot see; an end that pays much less was no cycle (the model was flat
            // where a pool's limit or a steep curve lies), and re-optimising it is wasted, unless
            // the point itself is that far from the bound (then any start may be the better one).
            let gross = f64::from(current.gross());
            let below_bound = problem.target.map_or(0.0, |t| f64::from(t) - gross);
            if f64::from(end.gross()) < gross - (gross * FLAT_END_LOSS).max(below_bound) {
                continue;
            }
            let mut closed = allowed.clone();
            (0..n)
                .filter(|&i| !current.alloc[i].is_zero() && end.alloc[i].is_zero())
                .for_each(|i| closed[i] = false);
            let rules = Rules { allowed: &closed, ..*rules };
            let Some((point, _)) = newton(problem, order, end, &rules, Gradient::Modelled) else {
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
    Some((current, problem.budget.stopped_in().is_none()))
}

/// Where the ascent's gradient comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gradient {
    /// The model's (`point.rs`).
    Modelled,
    /// The model's, then, once a step on it failed and the ascent stalls short of the bound,
    /// [`measured`] for up to [`MAX_MEASURED_STEPS`] steps.
    MeasuredIfModelFails,
}

/// The ascent proper: damped Newton steps until the model promises nothing or the deadline.
fn newton(
    problem: &Problem,
    order: &[usize],
    start: Point,
    rules: &Rules,
    gradient: Gradient,
) -> Option<(Point, bool)> {
    let mut current = start;
    let mut damping = INITIAL_DAMPING;
    let mut failures: usize = 0;
    // Limited pools whose linear hold failed at the current point: their routes are capped.
    let mut caps: Vec<Hop> = Vec::new();
    let mut scratch = Scratch::default();
    // Whether a step failed on the model's gradient, and whether the gradient is measured.
    let (mut failed, mut measuring, mut measured_steps) = (false, false, 0usize);
    let measure_now = |failed: bool, measuring: bool, current: &Point| {
        gradient == Gradient::MeasuredIfModelFails
            && failed
            && !measuring
            && !problem.reached(current.gross())
    };
    for _ in 0..MAX_ITERATIONS {
        let forced = current.open().any(|i| !rules.allowed[i]);
        // A forced step (emptying routes the rules close) is checked like any other: past the
        // deadline the ascent has no point its rules allow, and gives none.
        if problem.budget.expired() {
            return (!forced).then_some((current, false));
        }
        if !forced && problem.reached(current.gross()) {
            return Some((current, true));
        }
        let mut model = match measuring {
            true if measured_steps == MAX_MEASURED_STEPS => return Some((current, true)),
            true => {
                measured_steps = measured_steps.saturating_add(1);
                Model::at(problem, &measured(problem, order, &current))
            }
            false => Model::at(problem, &current),
        };
        caps.iter().for_each(|hop| model.cap_through(problem.paths, *hop));
        let mut delta = Vec::new();
        let predicted = model.step_into(rules, damping, &mut delta, &mut scratch);
        let step = Step { delta, predicted };
        let enough = CONVERGED_GAIN * model.gross.max(1.0);
        if !forced && step.predicted <= enough.max(TICK) {
            if measure_now(failed, measuring, &current) {
                (measuring, damping, failures) = (true, INITIAL_DAMPING, 0);
                continue;
            }
            return Some((current, true));
        }
        let (step, next) = feasible_part(problem, order, &current, &model, step);
        let gain = next.as_ref().ok().map(|p| f64::from(p.gross()) - model.gross);
        match (next, gain) {
            // A limited pool the step still overfilled: the model's flows into it are off (its
            // routes share pools upstream, where a route's marginal rate is not the final one),
            // so its routes may no longer grow; the step is taken again.
            (Err(Some(hop)), _) => caps.push(hop),
            (Ok(next), Some(gain)) if forced || gain > 0.0 => {
                let ratio = gain / step.predicted;
                if ratio > 0.75 {
                    damping = (damping / 4.0).max(MIN_DAMPING);
                } else if ratio < 0.25 {
                    damping *= 4.0;
                }
                current = next;
                failures = 0;
                caps.clear();
                if !forced && gain <= enough {
                    if measure_now(failed, measuring, &current) {
                        (measuring, damping) = (true, INITIAL_DAMPING);
                        continue;
                    }
                    return Some((current, true));
                }
            }
            _ if forced => return None,
            _ => {
                failed = true;
                failures = failures.saturating_add(1);
                if failures > MAX_FAILURES {
                    if measure_now(failed, measuring, &current) {
                        (measuring, damping, failures) = (true, INITIAL_DAMPING, 0);
                        continue;
                    }
                    return Some((current, true));
                }
                damping *= 8.0;
            }
        }
    }
    Some((current, true))
}

/// Steps on a measured gradient (each costs an evaluation per open route) before the ascent stops.
const MAX_MEASURED_STEPS: usize = 8;
/// Relative size of the nudge that measures a route's derivative.
const NUDGE: f64 = 1e-7;

/// `point` with the gradient of its open routes measured: each route's input nudged up by
/// [`NUDGE`] of it and the exact output's change divided by the nudge (one evaluation per route).
/// The modelled gradient assumes a pool pays the same for a unit whichever of its swaps carries
/// it; fees that stay in a pool's reserves (constant product) pay a swap's own continuation more
/// than a later swap's first unit, by (R + x)/(R + γx) on a swap of x into reserve R: on a thin
/// pool, enough for the model's steps to fail short of the bound (the trade and the figures:
/// `docs/solver-optimizer.md`, the measured gradient). Measured only once such steps failed.
fn measured(problem: &Problem, order: &[usize], point: &Point) -> Point {
    let mut point = point.clone();
    let gross = f64::from(point.gross());
    let Some(derivatives) = point.derivatives.as_mut() else { return point };
    for i in (0..point.alloc.len()).filter(|&i| !point.alloc[i].is_zero()) {
        // Each nudge is an evaluation, checked against the deadline as every other is; past it,
        // the routes not measured keep the model's gradient (and the ascent stops at its next step).
        if problem.budget.expired() {
            break;
        }
        let nudge = U256::try_from((f64::from(point.alloc[i]) * NUDGE).ceil())
            .unwrap_or(U256::from(1))
            .max(U256::from(1));
        let mut alloc = point.alloc.clone();
        let Some(nudged_amount) = alloc[i].checked_add(nudge) else { continue };
        alloc[i] = nudged_amount;
        if let Some(nudged) = evaluate(problem, order, alloc, false) {
            derivatives.gradient[i] = (f64::from(nudged.gross()) - gross) / f64::from(nudge);
        }
    }
    point
}

/// The step from `current`, evaluated; where it sends a pool more than the pool can take (a route
/// fails), halved until it does not, [`FEASIBLE_HALVINGS`] times at most: the model's direction
/// is right near a pool's limit, only too long. A limited pool that refuses the step is handed
/// back (`Err(Some(hop))`) for its routes to be capped, unless they already are.
fn feasible_part(
    problem: &Problem,
    order: &[usize],
    current: &Point,
    model: &Model,
    mut step: Step,
) -> (Step, Result<Point, Infeasible>) {
    for _ in 0..FEASIBLE_HALVINGS {
        let alloc = stepped(problem, &current.alloc, &step);
        if alloc == current.alloc {
            return (step, Err(None));
        }
        match evaluate_or_blame(problem, order, alloc, true) {
            Err(Some(hop)) if model.may_cap(problem.paths, hop) => return (step, Err(Some(hop))),
            Err(Some(_)) => {
                step.delta.iter_mut().for_each(|d| *d *= 0.5);
                // A quadratic model's gain along a halved step: at least half of it, at most
                // three quarters; the lower end keeps the acceptance test honest.
                step.predicted *= 0.5;
            }
            result => return (step, result),
        }
    }
    (step, Err(None))
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
            if problem.budget.expired() {
                return ends;
            }
            let delta: Vec<f64> = direction.iter().map(|d| d * sign).collect();
            let reach = (0..delta.len())
                .filter(|&i| delta[i] < 0.0)
                .map(|i| model.share[i] / -delta[i])
                .fold(f64::INFINITY, f64::min);
            if !reach.is_finite() {
                continue;
            }
            let step = Step { delta: delta.iter().map(|d| d * reach).collect(), predicted: 0.0 };
            if let Some(end) = evaluate(problem, order, stepped(problem, &point.alloc, &step), true)
            {
                ends.push(end);
            }
        }
    }
    ends
}

#[cfg(test)]
#[path = "newton_tests.rs"]
mod tests;
