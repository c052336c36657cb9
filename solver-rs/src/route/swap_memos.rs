//! The swap memos of one quote, per pool (each family's [`PoolModel::Memo`]): kept while the
//! quote's searches, its evaluation and the split optimizer swap pools of the same market again
//! and again, so that a swap through ticks an earlier one walked costs a binary search instead of
//! a step per tick.
//!
//! And kept after the quote for the next one on the same market snapshot ([`KeptSwapMemos`]): a
//! concentrated pool's walk (`pools/clmm/tick_walk.rs`, the only family with a memo) is a function
//! of the pool alone, from the first state it was asked about, and every quote's first swap of a
//! pool starts from the snapshot's state of it, so a walk one quote made is exact for every later
//! quote on the snapshot (a quote with `poolOverrides` swaps other states: it keeps its own).
//! Walking a pool's ticks and bitmap words at the full amount was about 40 % of a fresh 1,000-pool
//! 2-hop quote's CPU, split or single, nearly all in the path search.

use crate::market::PoolIdx;
use crate::math::U256;
use crate::pools::clmm::TickWalk;
use crate::pools::{PoolError, PoolModel, PoolState, SwapMemo, SwapOutcome};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

/// Memos for the pools of one market version, shared by the views (`Overlay`) of one quote.
#[derive(Debug, Default)]
pub struct SwapMemos {
    by_pool: RefCell<HashMap<PoolIdx, SwapMemo, BuildHasherDefault<SmallKeyHasher>>>,
}

impl SwapMemos {
    /// `state` (a state of `pool`) swapped as [`PoolModel::apply`] would, using and
    /// extending the pool's memo.
    pub fn apply(
        &self,
        pool: PoolIdx,
        state: &PoolState,
        token_in: usize,
        token_out: usize,
        amount_in: U256,
    ) -> Result<(SwapOutcome, PoolState), PoolError> {
        let mut by_pool = self.by_pool.borrow_mut();
        state.apply_memoized(token_in, token_out, amount_in, by_pool.entry(pool).or_default())
    }

    /// How many steps the memos hold: every concentrated pool's walks' checkpoints.
    pub fn checkpoints(&self) -> usize {
        self.by_pool.borrow().values().fold(0usize, |sum, memo| match memo {
            SwapMemo::Concentrated(walks) => {
                walks.iter().map(TickWalk::len).fold(sum, usize::saturating_add)
            }
            _ => sum,
        })
    }
}

/// Steps kept between quotes at most (a checkpoint is about 180 bytes: about 12 MB). A memo grown
/// past it is dropped, and the next quote starts afresh. The synthetic 1,000-pool market's trades
/// (1-3 hops, 0.01× to 100×) all quoted on one snapshot leave about 10,000; its 1× trades about
/// 600, the 10,000-pool market's about 500.
const MAX_KEPT_CHECKPOINTS: usize = 65_536;

/// The swap memos the quotes on one market snapshot leave for the next (the module docs say why
/// that is exact). One set serves one quote at a time, extended in place: a quote takes it and
/// gives it back when done; quotes at once start from empty memos, and the first one back is kept.
#[derive(Debug, Default)]
pub struct KeptSwapMemos {
    kept: Mutex<Option<SwapMemos>>,
}

impl KeptSwapMemos {
    /// The memos the last quote left, or empty ones.
    pub fn take(&self) -> SwapMemos {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default()
    }

    /// Keeps `memos` for the next quote, unless another quote's are kept already or they hold
    /// more than [`MAX_KEPT_CHECKPOINTS`] steps.
    pub fn keep(&self, memos: SwapMemos) {
        if memos.checkpoints() > MAX_KEPT_CHECKPOINTS {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.is_none() {
            *kept = Some(memos);
        }
    }
}

/// Hashes small integer keys with one multiplication per integer written (Fibonacci hashing,
/// each earlier word rotated in, as the compiler's own FxHasher does): a pool index, or a path's
/// hops (`search.rs`). The keys are small distinct integers, and the path searches look a pool up
/// for every swap they try and a path up for every path they reach, where the standard library's
/// SipHash was a visible share: a cheap pool's swap, and 4 % of a 10,000-pool split quote.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SmallKeyHasher(u64);

/// 2⁶⁴ divided by the golden ratio, odd: the product keeps distinct keys' low bits distinct and
/// spreads them into the high bits the map's control bytes read.
const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

impl SmallKeyHasher {
    fn add(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(FIBONACCI);
    }
}

impl Hasher for SmallKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*byte)).wrapping_mul(FIBONACCI);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

#[cfg(test)]
#[path = "swap_memos_tests.rs"]
mod tests;
