//! A memo of the V3 / V4 swap loop's full steps in one direction, so that a swap through ticks
//! another swap of the same quote already walked costs a binary search instead of a step per
//! tick and word edge (a 100× trade on a sparse pool steps through hundreds of word edges, and
//! the split optimizer swaps it dozens of times at nearby amounts).
//!
//! Why a jump is exact. A *full* step (one that reaches its target: the next initialized tick or
//! word edge) books an input, fee and output that depend only on the state it starts from, never
//! on the input left: its input is the amount to the target (rounded up), its fee is computed from
//! that input, its output from the two prices (V3's short step that lands on the target is booked
//! the same way). So from a state on the walk, the loop with `remaining` input repeats the walk's
//! steps exactly as long as each is full, and step j is full whenever
//! `remaining_j ≥ spent_j = a + ⌈a·f/(10⁶ − f)⌉` (a its input): then
//! `⌊remaining_j·(10⁶ − f)/10⁶⌋ ≥ a`, which is the contracts' test. A run with `remaining` input
//! from checkpoint k therefore passes every checkpoint m whose cumulative spend from k is at most
//! `remaining`, up to the first that spends it all (where the loop stops: it takes no step, not
//! even a free one, with no input left), with the walk's output, crossings and word edges
//! between them; the loop goes on
//! from checkpoint m with its own steps. Only states the walk reached are jumped from (state,
//! tick and liquidity equal), and only steps computed from the walk's own last state, with
//! unbounded input, are added to it. Property tests compare memoised and plain swaps.
//!
//! The swap's own last step, from a checkpoint and short of the next, is computed as the loop
//! computes it, but with that step's input to its target taken from the walk (the amount to the
//! next checkpoint's price from the same price and liquidity: a pure function of the three), which
//! saves one amount delta of the step's four or five.

use super::pool_swap::{ClState, LoopParams, StepEnd, SwapResult};
use crate::math::U256;
use crate::pools::PoolError;

/// The input a walk step is computed with: more than any step can take, so every step it books
/// is full (it is never paid: only the step's own amounts are kept).
const UNBOUNDED_INPUT: U256 = U256::from_limbs([u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 2]);

/// The loop's state at a step boundary, with what the walk spent, paid and crossed to reach it,
/// and the input (fee excluded) of the step that reached it from the checkpoint before.
#[derive(Clone, Copy, Debug)]
struct Checkpoint {
    state: ClState,
    spent: U256,
    amount_out: U256,
    crossings: u32,
    words: u32,
    /// The step's input to its target, which a swap that stops short of this checkpoint computes
    /// again (the same price, liquidity and target): its last step takes it from here.
    amount_in_to_here: U256,
}

/// The swap loop's full steps in one direction, from the first state it was asked about, as far
/// as the swaps through it have needed.
#[derive(Clone, Debug, Default)]
pub struct TickWalk {
    /// The fee its steps were computed at (a pool whose fee follows its state walks apart per fee).
    fee_pips: Option<u32>,
    checkpoints: Vec<Checkpoint>,
    /// No full step follows the last checkpoint (the price limit, or amounts past U256).
    ended: bool,
    /// The last few swaps' results, by start state and input: the candidate paths of one quote
    /// share their first hops, and are quoted whole at the same amount (a 3-hop trade's 30
    /// candidates go through a handful of first and second pools).
    recent: Vec<RecentSwap>,
    /// The slot of `recent` the next swap replaces, round robin.
    next_recent: usize,
}

/// Swaps remembered whole per walk.
const RECENT_SWAPS: usize = 4;

/// A swap's start state, input and fee, and its result (the loop is a pure function of the
/// three, the pool and the direction; a walk serves one pool in one direction).
#[derive(Clone, Copy, Debug)]
struct RecentSwap {
    start: ClState,
    amount_in: U256,
    fee_pips: u32,
    result: SwapResult,
}

impl TickWalk {
    /// Checkpoints held (the start and one per full step walked).
    pub fn len(&self) -> usize {
        self.checkpoints.len()
    }

    /// Whether nothing was walked yet.
    pub fn is_empty(&self) -> bool {
        self.checkpoints.is_empty()
    }

    /// A swap of `amount_in` from `start` at `fee_pips`: the result this walk remembers of the
    /// same swap, else `swap`'s, remembered in place of the oldest of the last [`RECENT_SWAPS`].
    pub(super) fn remembered(
        &mut self,
        start: ClState,
        amount_in: U256,
        fee_pips: u32,
        swap: impl FnOnce(&mut TickWalk) -> Result<SwapResult, PoolError>,
    ) -> Result<SwapResult, PoolError> {
        let same = |r: &&RecentSwap| {
            r.amount_in == amount_in && r.start == start && r.fee_pips == fee_pips
        };
        if let Some(known) = self.recent.iter().find(same) {
            return Ok(known.result);
        }
        let result = swap(self)?;
        let remembered = RecentSwap { start, amount_in, fee_pips, result };
        match self.recent.get_mut(self.next_recent) {
            Some(slot) => *slot = remembered,
            None => self.recent.push(remembered),
        }
        self.next_recent = match self.next_recent.saturating_add(1) {
            RECENT_SWAPS => 0,
            next => next,
        };
        Ok(result)
    }

    /// The index of the checkpoint equal to `state`, if the walk passed it.
    fn position(&self, state: &ClState, zero_for_one: bool) -> Option<usize> {
        // Prices move one way along the walk: falling when zero_for_one, rising otherwise.
        let index = self.checkpoints.partition_point(|c| match zero_for_one {
            true => c.state.sqrt_price_x96 > state.sqrt_price_x96,
            false => c.state.sqrt_price_x96 < state.sqrt_price_x96,
        });
        self.checkpoints.get(index).filter(|c| c.state == *state).map(|_| index)
    }

    /// Whether `state`'s price lies beyond the walk's last checkpoint (in its direction).
    fn short_of(&self, state: &ClState, zero_for_one: bool) -> bool {
        self.checkpoints.last().is_some_and(|last| match zero_for_one {
            true => state.sqrt_price_x96 < last.state.sqrt_price_x96,
            false => state.sqrt_price_x96 > last.state.sqrt_price_x96,
        })
    }

    /// Adds the full step from the last checkpoint; marks the walk ended if there is none.
    fn extend(&mut self, pool: &LoopParams) {
        let Some(last) = self.checkpoints.last().copied() else { return };
        let next = match pool.step(last.state, UNBOUNDED_INPUT) {
            Ok(step) if step.ended != StepEnd::Inside => step,
            // The limit, a step short of its target, or an error: the loop finds it itself.
            _ => {
                self.ended = true;
                return;
            }
        };
        let spent = last.spent.checked_add(next.spent);
        let amount_out = last.amount_out.checked_add(next.amount_out);
        let (Some(spent), Some(amount_out)) = (spent, amount_out) else {
            self.ended = true;
            return;
        };
        let (crossed, word) = match next.ended {
            StepEnd::Crossing => (1, 0),
            _ => (0, 1),
        };
        self.checkpoints.push(Checkpoint {
            state: next.state,
            spent,
            amount_out,
            crossings: last.crossings.saturating_add(crossed),
            words: last.words.saturating_add(word),
            amount_in_to_here: next.amount_in_to_target,
        });
    }

    /// From checkpoint `k` with `remaining` (> 0) input: the furthest checkpoint the loop passes,
    /// the walk extended as far as that needs. The loop takes a step only while input remains, so
    /// it stops at the first checkpoint that spends `remaining` exactly, never going on through
    /// the free steps after it (word edges where no liquidity is active cost nothing).
    fn furthest(&mut self, pool: &LoopParams, k: usize, remaining: U256) -> usize {
        let base = self.checkpoints[k].spent;
        // Compared as a difference from the base (cumulative spends never fall), so nothing overflows.
        let short = |c: &Checkpoint| c.spent.saturating_sub(base) < remaining;
        while !self.ended && self.checkpoints.last().is_some_and(short) {
            self.extend(pool);
        }
        // Checkpoint k spends nothing from itself, so it is short and `first` is past it.
        let first = k.saturating_add(self.checkpoints[k..].partition_point(short));
        match self.checkpoints.get(first) {
            Some(c) if c.spent.saturating_sub(base) == remaining => first,
            _ => first.saturating_sub(1),
        }
    }
}

/// [`LoopParams::swap_exact_in`]'s loop, jumping over the steps `walk` already holds and adding
/// to it the full steps this swap needs (see the module docs for why this is exact).
pub(super) fn swap_exact_in_walked(
    pool: &LoopParams,
    start: ClState,
    amount_in: U256,
    walk: &mut TickWalk,
) -> Result<SwapResult, PoolError> {
    if walk.checkpoints.is_empty() {
        walk.fee_pips = Some(pool.fee_pips);
        walk.checkpoints.push(Checkpoint {
            state: start,
            spent: U256::ZERO,
            amount_out: U256::ZERO,
            crossings: 0,
            words: 0,
            amount_in_to_here: U256::ZERO,
        });
    } else if walk.fee_pips != Some(pool.fee_pips) {
        // The walk's steps were booked at another fee: they are not this swap's.
        return pool.swap_exact_in(start, amount_in);
    }
    walk.remembered(start, amount_in, pool.fee_pips, |walk| walk_swap(pool, start, amount_in, walk))
}

/// The loop of [`swap_exact_in_walked`], through `walk`'s checkpoints.
fn walk_swap(
    pool: &LoopParams,
    start: ClState,
    amount_in: U256,
    walk: &mut TickWalk,
) -> Result<SwapResult, PoolError> {
    let zero_for_one = pool.zero_for_one;
    let mut swap = pool.begin(start, amount_in)?;
    while swap.runs(pool.limit) {
        // A state past the walk's end: the walk catches up first (the swap would take those
        // steps anyway), so that this swap's next boundary is a checkpoint.
        while !walk.ended && walk.short_of(&swap.state, zero_for_one) {
            walk.extend(pool);
        }
        // The input to the next step's target, when the walk stepped from this state before.
        let mut known_amount_in_to_target = None;
        if let Some(k) = walk.position(&swap.state, zero_for_one) {
            let m = walk.furthest(pool, k, swap.remaining);
            known_amount_in_to_target =
                walk.checkpoints.get(k.saturating_add(1)).map(|c| c.amount_in_to_here);
            if m > k {
                let (from, to) = (walk.checkpoints[k], walk.checkpoints[m]);
                // Checkpoints are cumulative (none falls below an earlier one), and `furthest`
                // spends at most what remains.
                swap.remaining = swap
                    .remaining
                    .checked_sub(to.spent.saturating_sub(from.spent))
                    .ok_or(PoolError::Overflow)?;
                swap.amount_out = swap
                    .amount_out
                    .checked_add(to.amount_out.saturating_sub(from.amount_out))
                    .ok_or(PoolError::Overflow)?;
                swap.crossings =
                    swap.crossings.saturating_add(to.crossings.saturating_sub(from.crossings));
                swap.words = swap.words.saturating_add(to.words.saturating_sub(from.words));
                swap.state = to.state;
                continue;
            }
        }
        let step = pool.step_knowing(swap.state, swap.remaining, known_amount_in_to_target)?;
        swap.take(&step)?;
    }
    swap.finish()
}
