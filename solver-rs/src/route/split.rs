//! The split optimizer: allocates the input across candidate paths to maximise output net of gas.
//!
//! Objective: routes run in candidate order, each on the pool states the earlier ones left, so the
//! value of an allocation is exact. Candidates that share no pool never affect each other; they
//! are grouped into components (union of pool sharing), and a change to one candidate only
//! re-simulates its component.
//!
//! Method: greedy allocation in equal chunks, then a local search that moves `step` units from
//! one route to another while that improves the objective, halving `step` down to a fraction of
//! the amount fine enough that the remaining misallocation costs far less than 0.1 bps. The best
//! single path is a starting point too, and a move is taken only if it improves the objective,
//! so the result is never worse than the best single path. The search stops at the deadline.

use super::clock::Deadline;
use super::gas::GasPricer;
use super::net::Net;
use super::path::{quote_path, Overlay, Path};
use crate::market::Market;
use crate::math::U256;

/// Greedy chunks: the first allocation has this resolution.
const GREEDY_CHUNKS: u64 = 20;
/// The finest step is amountIn >> this (about 2.4e-7 of the amount).
const FINEST_STEP_SHIFT: usize = 22;

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
}

struct Structure {
    component_of: Vec<usize>,
    members: Vec<Vec<usize>>,
    conflicts: Vec<Vec<usize>>,
}

fn structure(paths: &[Path]) -> Structure {
    let n = paths.len();
    let conflicts: Vec<Vec<usize>> =
        (0..n).map(|i| (0..n).filter(|&j| j != i && paths[i].shares_pool_with(&paths[j])).collect()).collect();
    // Components: connected sets of the conflict graph, numbered by their smallest member.
    let mut component_of = vec![usize::MAX; n];
    let mut members = Vec::new();
    for start in 0..n {
        if component_of[start] != usize::MAX {
            continue;
        }
        let id = members.len();
        let mut stack = vec![start];
        let mut group = Vec::new();
        component_of[start] = id;
        while let Some(i) = stack.pop() {
            group.push(i);
            for &j in &conflicts[i] {
                if component_of[j] == usize::MAX {
                    component_of[j] = id;
                    stack.push(j);
                }
            }
        }
        group.sort_unstable();
        members.push(group);
    }
    Structure { component_of, members, conflicts }
}

struct Search<'a, 'p> {
    problem: &'p Problem<'a>,
    structure: Structure,
    alloc: Vec<U256>,
    /// Current value of each component.
    values: Vec<Net>,
    total: Net,
    /// Per candidate, its component's value with `step` more (`plus`) or less (`minus`) input:
    /// None = not computed for this step, Some(None) = infeasible.
    plus: Vec<Option<Option<Net>>>,
    minus: Vec<Option<Option<Net>>>,
}

impl<'a, 'p> Search<'a, 'p> {
    /// The exact value of component `c` under `alloc`, or None if a route cannot take its amount.
    fn component_value(&self, c: usize, alloc: &[U256]) -> Option<Net> {
        let members = &self.structure.members[c];
        let market = self.problem.market;
        let (gross, gas) = if members.len() == 1 {
            let i = members[0];
            if alloc[i].is_zero() {
                return Some(Net::ZERO);
            }
            quote_path(market, &self.problem.paths[i], alloc[i]).ok()?
        } else {
            let mut overlay = Overlay::new(market);
            let (mut gross, mut gas) = (U256::ZERO, 0u64);
            for &i in members {
                if !alloc[i].is_zero() {
                    let (out, g) = overlay.run(&self.problem.paths[i], alloc[i], None).ok()?;
                    gross += out;
                    gas += g;
                }
            }
            (gross, gas)
        };
        Some(Net::new(gross, self.problem.pricer.cost(gas)))
    }

    /// Whether `j` may carry input when `dropped` (if any) carries none, under the disjoint rule.
    fn may_activate(&self, j: usize, dropped: Option<usize>) -> bool {
        !self.problem.disjoint
            || self.structure.conflicts[j].iter().all(|&k| Some(k) == dropped || self.alloc[k].is_zero())
    }

    fn set(&mut self, alloc: Vec<U256>) -> bool {
        let mut values = Vec::with_capacity(self.structure.members.len());
        for c in 0..self.structure.members.len() {
            match self.component_value(c, &alloc) {
                Some(v) => values.push(v),
                None => return false,
            }
        }
        self.total = values.iter().fold(Net::ZERO, |acc, v| acc.plus(*v));
        self.values = values;
        self.alloc = alloc;
        true
    }

    /// The total if `amount` moves from `from` (None: from nowhere) to `to`.
    fn total_after_move(&self, from: Option<usize>, to: usize, amount: U256) -> Option<Net> {
        let mut alloc = self.alloc.clone();
        if let Some(i) = from {
            alloc[i] -= amount;
        }
        alloc[to] += amount;
        let cj = self.structure.component_of[to];
        let ci = from.map(|i| self.structure.component_of[i]);
        let mut total = self.total;
        for c in [Some(cj), ci.filter(|&c| c != cj)].into_iter().flatten() {
            total = minus(total, self.values[c]).plus(self.component_value(c, &alloc)?);
        }
        Some(total)
    }

    fn apply_move(&mut self, from: Option<usize>, to: usize, amount: U256) {
        if let Some(i) = from {
            self.alloc[i] -= amount;
        }
        self.alloc[to] += amount;
        let cj = self.structure.component_of[to];
        let ci = from.map(|i| self.structure.component_of[i]);
        for c in [Some(cj), ci.filter(|&c| c != cj)].into_iter().flatten() {
            let value = self.component_value(c, &self.alloc).expect("a move is applied only after it was evaluated");
            self.total = minus(self.total, self.values[c]).plus(value);
            self.values[c] = value;
        }
    }

    /// Greedy: each chunk goes where it adds the most. None if some chunk fits nowhere.
    fn greedy(&mut self) -> Option<()> {
        let n = self.problem.paths.len();
        let chunk = self.problem.amount_in / U256::from(GREEDY_CHUNKS);
        let mut remaining = self.problem.amount_in;
        while !remaining.is_zero() {
            let amount = if chunk.is_zero() || remaining < chunk * U256::from(2) { remaining } else { chunk };
            let mut best: Option<(Net, usize)> = None;
            for j in 0..n {
                if !self.may_activate(j, None) {
                    continue;
                }
                if let Some(total) = self.total_after_move(None, j, amount) {
                    if best.map_or(true, |(b, _)| total > b) {
                        best = Some((total, j));
                    }
                }
            }
            let (_, j) = best?;
            self.apply_move(None, j, amount);
            remaining -= amount;
        }
        Some(())
    }

    /// The value of `c`'s component after `amount` moves in (`sign` > 0) or out of candidate `i`.
    fn shifted(&self, i: usize, amount: U256, add: bool) -> Option<Net> {
        let mut alloc = self.alloc.clone();
        alloc[i] = if add { alloc[i] + amount } else { alloc[i] - amount };
        self.component_value(self.structure.component_of[i], &alloc)
    }

    /// Forgets cached shifted values of every candidate in `c`'s component.
    fn invalidate(&mut self, c: usize) {
        for &k in &self.structure.members[c] {
            self.plus[k] = None;
            self.minus[k] = None;
        }
    }

    /// One pass of pairwise moves of (at most) `step`; returns whether a move was taken.
    ///
    /// Moves between components cost two cached evaluations (`minus[i]`, `plus[j]`); only moves
    /// inside one component, or of a route's whole remainder, are simulated jointly.
    fn improve_once(&mut self, step: U256) -> bool {
        let n = self.problem.paths.len();
        let mut best: Option<(Net, usize, usize, U256)> = None;
        for i in 0..n {
            if self.alloc[i].is_zero() {
                continue;
            }
            let amount = step.min(self.alloc[i]);
            let emptied = amount == self.alloc[i];
            if !emptied && self.minus[i].is_none() {
                self.minus[i] = Some(self.shifted(i, step, false));
            }
            let ci = self.structure.component_of[i];
            for j in 0..n {
                if j == i || !self.may_activate(j, emptied.then_some(i)) {
                    continue;
                }
                let cj = self.structure.component_of[j];
                if ci != cj && !emptied && self.plus[j].is_none() {
                    self.plus[j] = Some(self.shifted(j, step, true));
                }
                let total = if ci != cj && !emptied {
                    match (self.minus[i].flatten(), self.plus[j].flatten()) {
                        (Some(out_of_i), Some(into_j)) => {
                            Some(minus(minus(self.total, self.values[ci]), self.values[cj]).plus(out_of_i).plus(into_j))
                        }
                        _ => None,
                    }
                } else {
                    self.total_after_move(Some(i), j, amount)
                };
                if let Some(total) = total {
                    if total > best.map_or(self.total, |b| b.0) {
                        best = Some((total, i, j, amount));
                    }
                }
            }
        }
        match best {
            Some((_, i, j, amount)) => {
                self.apply_move(Some(i), j, amount);
                let (ci, cj) = (self.structure.component_of[i], self.structure.component_of[j]);
                self.invalidate(ci);
                self.invalidate(cj);
                true
            }
            None => false,
        }
    }

    /// Starts a new step size: every cached shifted value is stale.
    fn reset_cache(&mut self) {
        self.plus.iter_mut().for_each(|v| *v = None);
        self.minus.iter_mut().for_each(|v| *v = None);
    }
}

fn minus(total: Net, part: Net) -> Net {
    Net { gross: total.gross.saturating_sub(part.gross), cost: total.cost.saturating_sub(part.cost) }
}

/// The best single path: the candidate whose whole-amount value is highest (first on ties).
pub fn best_single(problem: &Problem) -> Option<(usize, Net)> {
    let mut best: Option<(usize, Net)> = None;
    for (i, path) in problem.paths.iter().enumerate() {
        if let Ok((out, gas)) = quote_path(problem.market, path, problem.amount_in) {
            let value = Net::new(out, problem.pricer.cost(gas));
            if best.map_or(true, |(_, b)| value > b) {
                best = Some((i, value));
            }
        }
    }
    best
}

/// Allocates `amount_in` across the candidates. None when no allocation can be filled.
pub fn optimize(problem: &Problem) -> Option<Solution> {
    let n = problem.paths.len();
    let single = best_single(problem);
    let structure = structure(problem.paths);
    let mut search = Search { problem, values: vec![Net::ZERO; structure.members.len()], structure, alloc: vec![U256::ZERO; n], total: Net::ZERO, plus: vec![None; n], minus: vec![None; n] };

    let greedy_ok = search.greedy().is_some();
    if let Some((i, value)) = single {
        if !greedy_ok || value >= search.total {
            let mut alloc = vec![U256::ZERO; n];
            alloc[i] = problem.amount_in;
            if !search.set(alloc) {
                return None;
            }
        }
    } else if !greedy_ok {
        return None;
    }

    let finest = (problem.amount_in >> FINEST_STEP_SHIFT).max(U256::from(1));
    let mut step = (problem.amount_in / U256::from(2 * GREEDY_CHUNKS)).max(U256::from(1));
    let mut converged = true;
    'levels: loop {
        search.reset_cache();
        loop {
            if problem.deadline.expired() {
                converged = false;
                break 'levels;
            }
            if !search.improve_once(step) {
                break;
            }
        }
        if step <= finest {
            break;
        }
        step = (step >> 1usize).max(finest);
    }
    // Closing pass: try emptying each route into another, which a small step never does when
    // the saving is a whole route's gas.
    if converged {
        search.reset_cache();
        loop {
            if problem.deadline.expired() {
                converged = false;
                break;
            }
            if !search.improve_once(problem.amount_in) {
                break;
            }
        }
    }
    Some(Solution { alloc: search.alloc, value: search.total, converged })
}
