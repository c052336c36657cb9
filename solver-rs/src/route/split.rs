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
/// The finest step is amountIn >> this (about 1.5e-5 of the amount): the misallocation left costs
/// on the order of (1.5e-5)² of the output, far below 0.1 bps.
const FINEST_STEP_SHIFT: usize = 16;
/// Trial refinements (route closures, the single-path start, route orders) stop at amountIn >> this;
/// only the allocation that wins is refined to the finest step.
const TRIAL_STEP_SHIFT: usize = 8;

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
    /// Candidate indices in execution order (routes that share pools run in this order).
    pub order: Vec<usize>,
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
    /// Whether gas is part of the objective (the first phase solves the concave gas-free problem).
    with_gas: bool,
    /// Routes closed by the closing phase: the local search may not reopen them.
    closed: Vec<bool>,
}

impl<'a, 'p> Search<'a, 'p> {
    fn new(problem: &'p Problem<'a>, with_gas: bool) -> Self {
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
        let cost = if self.with_gas { self.problem.pricer.cost(gas) } else { U256::ZERO };
        Some(Net::new(gross, cost))
    }

    /// Whether `j` may carry input when `dropped` (if any) carries none, under the disjoint rule.
    fn may_activate(&self, j: usize, dropped: Option<usize>) -> bool {
        if self.closed[j] && self.alloc[j].is_zero() {
            return false;
        }
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

    /// Greedy: each chunk goes where it adds the most. Each candidate's component value with one
    /// more chunk is cached and recomputed only for the component the last chunk went to. On
    /// failure (some chunk fits nowhere) the allocation is left empty and None is returned.
    fn greedy(&mut self) -> Option<()> {
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
            for j in 0..n {
                if !self.may_activate(j, None) {
                    continue;
                }
                let value = *with_chunk[j].get_or_insert_with(|| self.shifted(j, amount, true));
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
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((i, value));
            }
        }
    }
    best
}

/// Allocates `amount_in` across the candidates. None when no allocation can be filled.
///
/// Gas is a fixed cost per route, which makes the objective non-concave: local moves cannot
/// switch which routes are open. So the gas-free problem (concave) is solved first, then, with
/// gas, each open route is tried closed (its input handed to the largest other route and the rest
/// re-refined) and the best closure is kept while one helps; the best single path, refined, is a
/// second start. The best
/// allocation seen wins.
pub fn optimize(problem: &Problem) -> Option<Solution> {
    let n = problem.paths.len();
    let single = best_single(problem);
    let mut search = Search::new(problem, false);
    let mut converged = true;

    // Start 1: the gas-free optimum (greedy, refined). Without a gas price it is the answer.
    if search.greedy().is_none() && single.is_none() {
        return None;
    }
    let mut best: Option<(Net, Vec<U256>)> = None;
    if !search.alloc.iter().all(|a| a.is_zero()) {
        converged &= search.refine(FINEST_STEP_SHIFT);
        search.with_gas = true;
        if search.set(search.alloc.clone()) {
            best = Some((search.total, search.alloc.clone()));
            if problem.pricer.is_priced() {
                // With gas, prune it of routes whose gas outweighs what they add. It is pruned
                // even when it starts below the single path: its best subset is often the winner.
                converged &= search.refine(TRIAL_STEP_SHIFT);
                best = Some(search.close_routes(&mut converged));
            }
        }
    }
    search.with_gas = true;
    // Start 2: the best single path, refined with gas (it only differs from start 1 with gas).
    if let (Some((i, _)), true) = (single, problem.pricer.is_priced() || best.is_none()) {
        let mut alloc = vec![U256::ZERO; n];
        alloc[i] = problem.amount_in;
        if search.set(alloc) {
            converged &= search.refine(TRIAL_STEP_SHIFT);
            let found = search.close_routes(&mut converged);
            if best.as_ref().is_none_or(|(b, _)| found.0 > *b) {
                best = Some(found);
            }
        }
    }
    let (mut best_value, mut best_alloc) = best?;
    if problem.pricer.is_priced() && search.set(best_alloc.clone()) {
        converged &= search.refine(FINEST_STEP_SHIFT);
        if search.total > best_value {
            (best_value, best_alloc) = (search.total, search.alloc.clone());
        }
    }

    // Phase 3: the order of routes that share pools changes what they get (a pool's state after
    // one route's swap is the next route's price). Small components try every order of their
    // open routes, each re-refined; larger ones take the best order at the current allocation.
    if converged && search.set(best_alloc.clone()) {
        for c in 0..search.structure.members.len() {
            let members = search.structure.members[c].clone();
            let (open, idle): (Vec<usize>, Vec<usize>) = members.iter().partition(|&&i| !best_alloc[i].is_zero());
            if open.len() < 2 || open.len() > MAX_REFINED_ORDERS_ROUTES {
                continue;
            }
            let mut best_members = members.clone();
            for perm in permutations(&open).into_iter().skip(1) {
                if problem.deadline.expired() {
                    converged = false;
                    break;
                }
                search.structure.members[c] = perm.into_iter().chain(idle.iter().copied()).collect();
                if !search.set(best_alloc.clone()) {
                    continue;
                }
                converged &= search.refine(FINEST_STEP_SHIFT);
                if search.total > best_value {
                    (best_value, best_alloc) = (search.total, search.alloc.clone());
                    best_members = search.structure.members[c].clone();
                }
            }
            search.structure.members[c] = best_members;
        }
        let kept_order = search.structure.members.clone();
        if search.set(best_alloc.clone()) && search.reorder() {
            converged &= search.refine(FINEST_STEP_SHIFT);
            if search.total > best_value {
                (best_value, best_alloc) = (search.total, search.alloc.clone());
            } else {
                search.structure.members = kept_order;
            }
        }
    }
    let order = search.structure.members.iter().flatten().copied().collect();
    Some(Solution { alloc: best_alloc, value: best_value, converged, order })
}

/// Components with more open routes than this keep their order (5! = 120 evaluations at most).
const MAX_REORDERED_ROUTES: usize = 5;
/// Components with at most this many open routes re-refine every order (3! = 6 refinements).
const MAX_REFINED_ORDERS_ROUTES: usize = 3;

/// Every ordering of `items`, lexicographic in their positions.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
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
    /// From the current (refined) allocation, closes routes while that pays: every open route is
    /// tried closed (its input handed to the largest other route, the rest re-refined with the
    /// closed route kept shut), and the best closure is kept. Taking the first closure that helps
    /// can lock in the wrong set of routes when routes share pools. Returns the best allocation.
    fn close_routes(&mut self, converged: &mut bool) -> (Net, Vec<U256>) {
        let n = self.problem.paths.len();
        let (mut best_value, mut best_alloc) = (self.total, self.alloc.clone());
        self.closed.iter_mut().for_each(|c| *c = false);
        while *converged {
            let open: Vec<usize> = (0..n).filter(|&i| !best_alloc[i].is_zero()).collect();
            if open.len() < 2 {
                break;
            }
            let mut round_best: Option<(Net, Vec<U256>, usize)> = None;
            for &closed in &open {
                if self.problem.deadline.expired() {
                    *converged = false;
                    break;
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

    /// Puts each component's open routes in their best execution order for the current
    /// allocation. Returns whether any order changed.
    fn reorder(&mut self) -> bool {
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

    /// Local search from the current allocation: pairwise moves with halving steps, then whole
    /// routes emptied into others (which small steps never do when the saving is a whole route's
    /// gas); after an emptying the steps run again, since the routes left need rebalancing.
    /// Returns false if the deadline cut it short.
    fn refine(&mut self, finest_shift: usize) -> bool {
        let amount_in = self.problem.amount_in;
        let finest = (amount_in >> finest_shift).max(U256::from(1));
        loop {
            let mut step = (amount_in / U256::from(2 * GREEDY_CHUNKS)).max(U256::from(1));
            loop {
                self.reset_cache();
                loop {
                    if self.problem.deadline.expired() {
                        return false;
                    }
                    if !self.improve_once(step) {
                        break;
                    }
                }
                if step <= finest {
                    break;
                }
                step = (step >> 1usize).max(finest);
            }
            self.reset_cache();
            let mut emptied = false;
            loop {
                if self.problem.deadline.expired() {
                    return false;
                }
                if !self.improve_once(amount_in) {
                    break;
                }
                emptied = true;
            }
            if !emptied {
                return true;
            }
        }
    }
}
