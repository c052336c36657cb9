//! The swap memos of one quote, per pool (each family's [`PoolModel::Memo`]): kept while the
//! quote's searches, its evaluation and the split optimizer swap pools of the same market again
//! and again, so that a swap through ticks an earlier one walked costs a binary search instead of
//! a step per tick.

use crate::market::PoolIdx;
use crate::math::U256;
use crate::pools::{PoolError, PoolModel, PoolState, SwapMemo, SwapOutcome};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
