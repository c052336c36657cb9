//! The swap memos of one quote, per pool (each family's [`PoolModel::Memo`]): kept while the split optimizer
//! evaluates allocation after allocation on the same market, so that a swap through ticks an
//! earlier evaluation walked costs a binary search instead of a step per tick.

use crate::market::PoolIdx;
use crate::math::U256;
use crate::pools::{PoolError, PoolModel, PoolState, SwapMemo, SwapOutcome};
use std::cell::RefCell;
use std::collections::HashMap;

/// Memos for the pools of one market version, shared by the views (`Overlay`) of one quote.
#[derive(Debug, Default)]
pub struct SwapMemos {
    by_pool: RefCell<HashMap<PoolIdx, SwapMemo>>,
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
