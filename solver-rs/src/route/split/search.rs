//! The search state: components of pool-sharing candidates, exact component values, moves.

use super::super::net::Net;
use super::super::path::{quote_path, Overlay, Path};
use super::{Problem, GREEDY_CHUNKS};
use crate::math::U256;

pub(super) struct Structure {
    pub(super) component_of: Vec<usize>,
    pub(super) members: Vec<Vec<usize>>,
    pub(super) conflicts: Vec<Vec<usize>>,
}

pub(super) fn structure(paths: &[Path]) -> Structure {
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

pub(super) struct Search<'a, 'p> {
    pub(super) problem: &'p Problem<'a>,
    pub(super) structure: Structure,
    pub(super) alloc: Vec<U256>,
    /// Current value of each component.
    pub(super) values: Vec<Net>,
    pub(super) total: Net,
    /// Per candidate, its component's value with `step` more (`plus`) or less (`minus`) input:
    /// None = not computed for this step, Some(None) = infeasible.
    pub(super) plus: Vec<Option<Option<Net>>>,
    pub(super) minus: Vec<Option<Option<Net>>>,
    /// Whether gas is part of the objective (the first phase solves the concave gas-free problem).
    pub(super) with_gas: bool,
    /// Routes closed by the closing phase: the local search may not reopen them.
    pub(super) closed: Vec<bool>,
}

impl<'a, 'p> Search<'a, 'p> {
    pub(super) fn new(problem: &'p Problem<'a>, with_gas: bool) -> Self {
        let n = problem.paths.len();
        let structure = structure(problem.paths);
        Search {
            problem,
            values: vec![Net::ZERO; structure.members.len()],
            structure,
            alloc: vec![U256::ZERO; n],
            total: Net::ZERO,
            plus: vec![None; n],
            minus: vec![None; n],
            with_gas,
            closed: vec![false; n],
        }
    }

    /// The exact value of component `c` under `alloc`, or None if a route cannot take its amount.
    pub(super) fn component_value(&self, c: usize, alloc: &[U256]) -> Option<Net> {
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
        let cost = if self.with_gas { self.problem.pricer.cost(gas) } else { U256::ZERO };
        Some(Net::new(gross, cost))
    }

    /// Whether `j` may carry input when `dropped` (if any) carries none, under the disjoint rule.
    pub(super) fn may_activate(&self, j: usize, dropped: Option<usize>) -> bool {
        if self.closed[j] && self.alloc[j].is_zero() {
            return false;
        }
        !self.problem.disjoint
            || self.structure.conflicts[j].iter().all(|&k| Some(k) == dropped || self.alloc[k].is_zero())
    }

    pub(super) fn set(&mut self, alloc: Vec<U256>) -> bool {
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
    pub(super) fn total_after_move(&self, from: Option<usize>, to: usize, amount: U256) -> Option<Net> {
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

    pub(super) fn apply_move(&mut self, from: Option<usize>, to: usize, amount: U256) {
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

    /// Greedy: each chunk goes where it adds the most. Each candidate's component value with one
    /// more chunk is cached and recomputed only for the component the last chunk went to. On
    /// failure (some chunk fits nowhere) the allocation is left empty and None is returned.
    pub(super) fn greedy(&mut self) -> Option<()> {
        let n = self.problem.paths.len();
        let chunk = self.problem.amount_in / U256::from(GREEDY_CHUNKS);
        let mut remaining = self.problem.amount_in;
        let mut with_chunk: Vec<Option<Option<Net>>> = vec![None; n];
        let mut cached_amount = U256::ZERO;
        while !remaining.is_zero() {
            let amount = if chunk.is_zero() || remaining < chunk * U256::from(2) { remaining } else { chunk };
            if amount != cached_amount {
                with_chunk.iter_mut().for_each(|v| *v = None);
                cached_amount = amount;
            }
            let mut best: Option<(Net, usize)> = None;
            for (j, cached) in with_chunk.iter_mut().enumerate() {
                if !self.may_activate(j, None) {
                    continue;
                }
                let value = *cached.get_or_insert_with(|| self.shifted(j, amount, true));
                let cj = self.structure.component_of[j];
                if let Some(value) = value {
                    let total = minus(self.total, self.values[cj]).plus(value);
                    if best.is_none_or(|(b, _)| total > b) {
                        best = Some((total, j));
                    }
                }
            }
            let Some((_, j)) = best else {
                self.set(vec![U256::ZERO; n]);
                return None;
            };
            self.apply_move(None, j, amount);
            for &k in &self.structure.members[self.structure.component_of[j]] {
                with_chunk[k] = None;
            }
            remaining -= amount;
        }
        Some(())
    }

    /// The value of `c`'s component after `amount` moves in (`sign` > 0) or out of candidate `i`.
    pub(super) fn shifted(&self, i: usize, amount: U256, add: bool) -> Option<Net> {
        let mut alloc = self.alloc.clone();
        alloc[i] = if add { alloc[i] + amount } else { alloc[i] - amount };
        self.component_value(self.structure.component_of[i], &alloc)
    }

    /// Forgets cached shifted values of every candidate in `c`'s component.
    pub(super) fn invalidate(&mut self, c: usize) {
        for &k in &self.structure.members[c] {
            self.plus[k] = None;
            self.minus[k] = None;
        }
    }

    /// One pass of pairwise moves of (at most) `step`; returns whether a move was taken.
    ///
    /// Moves between components cost two cached evaluations (`minus[i]`, `plus[j]`); only moves
    /// inside one component, or of a route's whole remainder, are simulated jointly.
    pub(super) fn improve_once(&mut self, step: U256) -> bool {
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
    pub(super) fn reset_cache(&mut self) {
        self.plus.iter_mut().for_each(|v| *v = None);
        self.minus.iter_mut().for_each(|v| *v = None);
    }
}

pub(super) fn minus(total: Net, part: Net) -> Net {
    Net { gross: total.gross.saturating_sub(part.gross), cost: total.cost.saturating_sub(part.cost) }
}
