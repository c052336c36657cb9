//! Fynd's incremental water-fill: the order is poured in chunks, each to the path that pays most
//! for it at the pools' current state, and the winner's swap is committed before the next chunk.
//! One swap of x pays what two back-to-back swaps summing to x pay (to rounding), so only the
//! next chunk is simulated against the committed state (O(chunks), not O(chunks²)).
//!
//! A path's first chunk is charged its gas ("activation") when gated; once it has a chunk, or when
//! the pass is not gated, only its output counts. Ties go to the earlier path. Past the deadline
//! the pass stops and keeps what it poured.

use super::view::{step, Step, View};
use super::{Solve, MAX_PATHS};
use crate::math::U256;
use crate::route::net::Net;

/// `n` chunks of amountIn / n, the first also carrying the remainder; None when a chunk would be 0.
fn chunk_sizes(amount: U256, n: usize) -> Option<(U256, U256)> {
    let n = U256::from(n.max(1));
    let (base, rest) = (amount.checked_div(n)?, amount.checked_rem(n)?);
    // base + rest ≤ amount: never saturates.
    (!base.is_zero()).then(|| (base.saturating_add(rest), base))
}

/// What a chunk is worth on a path: its output, less its gas when the path is not yet active.
fn worth(solve: &Solve, step: &Step, active: bool) -> Net {
    Net::new(step.out, if active { U256::ZERO } else { solve.pricer.cost(step.gas) })
}

/// The path whose next `chunk` is worth most (ties: the earlier), pricing on `view_of(i)` those
/// whose marginal is not remembered; a path `view_of` answers None for may not take the chunk.
fn best<'v>(
    solve: &Solve,
    subset: &[usize],
    marginals: &mut [Option<Step>],
    active: &[bool],
    view_of: impl Fn(usize) -> Option<&'v View>,
    chunk: U256,
) -> Option<usize> {
    let mut best: Option<(usize, Net)> = None;
    for (i, &p) in subset.iter().enumerate() {
        let Some(view) = view_of(i) else { continue };
        if marginals[i].is_none() {
            marginals[i] = step(solve.market, view, &solve.paths[p], chunk);
        }
        let Some(m) = &marginals[i] else { continue };
        let value = worth(solve, m, active[i]);
        if best.as_ref().is_none_or(|(_, b)| value > *b) {
            best = Some((i, value));
        }
    }
    best.map(|(i, _)| i)
}

/// Water-fill over pool-disjoint paths (`subset`, indices into the solve's paths): each path on
/// its own view, since none touches another's pools. Returns the input poured into each.
pub fn disjoint(solve: &Solve, subset: &[usize], chunks: usize, gate: bool) -> Option<Vec<U256>> {
    let (first, base) = chunk_sizes(solve.amount_in, chunks)?;
    let mut views: Vec<View> = subset.iter().map(|_| View::default()).collect();
    let mut poured = vec![U256::ZERO; subset.len()];
    let mut active = vec![!gate; subset.len()];
    // Only the winner's pools move, so every other path would be asked the same question again
    // next chunk: its answer is kept. The first chunk is larger, so nothing carries over it.
    let mut marginals: Vec<Option<Step>> = subset.iter().map(|_| None).collect();
    for k in 0..chunks {
        if solve.deadline.expired() {
            break;
        }
        let chunk = if k == 0 { first } else { base };
        if k == 1 {
            marginals.iter_mut().for_each(|m| *m = None);
        }
        let Some(winner) = best(solve, subset, &mut marginals, &active, |i| Some(&views[i]), chunk)
        else {
            break;
        };
        let step = marginals[winner].take().expect("the winner was priced");
        views[winner].commit(step.states);
        poured[winner] = poured[winner].saturating_add(chunk);
        active[winner] = true;
    }
    Some(poured)
}

/// Fynd's fill-and-spill: the water-fill over paths that may share pools, on one view, so a path
/// through a pool another path drained sees it drained. At most [`MAX_PATHS`] paths take chunks.
/// Returns the chunks in the order they were poured, as (index into `subset`, amount).
pub fn shared(
    solve: &Solve,
    subset: &[usize],
    chunks: usize,
    gate: bool,
) -> Option<Vec<(usize, U256)>> {
    let (first, base) = chunk_sizes(solve.amount_in, chunks)?;
    let mut view = View::default();
    let mut active = vec![!gate; subset.len()];
    let mut active_count = if gate { 0 } else { subset.len() };
    let mut schedule = Vec::with_capacity(chunks);
    // A committed chunk changes the answer of every path through a pool it moved, and only those.
    let mut marginals: Vec<Option<Step>> = subset.iter().map(|_| None).collect();
    for k in 0..chunks {
        if solve.deadline.expired() {
            break;
        }
        let chunk = if k == 0 { first } else { base };
        if k == 1 {
            marginals.iter_mut().for_each(|m| *m = None);
        }
        // Once MAX_PATHS paths are active, no other may start.
        let open = |i: usize| (active[i] || active_count < MAX_PATHS).then_some(&view);
        let Some(winner) = best(solve, subset, &mut marginals, &active, open, chunk) else { break };
        let step = marginals[winner].take().expect("the winner was priced");
        for (i, &p) in subset.iter().enumerate() {
            if solve.paths[p].hops.iter().any(|h| step.moves(h.pool)) {
                marginals[i] = None;
            }
        }
        view.commit(step.states);
        if !active[winner] {
            active[winner] = true;
            active_count = active_count.saturating_add(1);
        }
        schedule.push((winner, chunk));
    }
    Some(schedule)
}
