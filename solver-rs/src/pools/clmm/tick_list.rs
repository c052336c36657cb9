//! The pool's initialized ticks, sorted and immutable, shared behind an `Arc` by every state the
//! pool passes through (a swap changes price, tick and active liquidity, never the ticks).

use super::tick_math::{MAX_TICK, MIN_TICK};

/// Initialized ticks in strictly ascending order with their liquidityNet (added when crossed
/// upward, subtracted when crossed downward).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickList {
    ticks: Vec<i32>,
    liquidity_nets: Vec<i128>,
}

impl TickList {
    /// Builds the list; the caller has checked the order (see `wire.rs`).
    pub fn from_sorted(entries: Vec<(i32, i128)>) -> Self {
        let (ticks, liquidity_nets) = entries.into_iter().unzip();
        TickList { ticks, liquidity_nets }
    }

    /// Every initialized tick with its liquidityNet, ascending.
    pub fn iter(&self) -> impl Iterator<Item = (i32, i128)> + '_ {
        self.ticks.iter().copied().zip(self.liquidity_nets.iter().copied())
    }

    /// The `index`-th tick and its liquidityNet.
    pub fn entry(&self, index: usize) -> Option<(i32, i128)> {
        Some((*self.ticks.get(index)?, *self.liquidity_nets.get(index)?))
    }

    /// The greatest initialized tick ≤ `tick`, with its liquidityNet.
    pub fn at_or_below(&self, tick: i32) -> Option<(i32, i128)> {
        let count_at_or_below = self.ticks.partition_point(|t| *t <= tick);
        count_at_or_below.checked_sub(1).and_then(|i| self.entry(i))
    }

    /// The least initialized tick > `tick`, with its liquidityNet.
    pub fn above(&self, tick: i32) -> Option<(i32, i128)> {
        self.entry(self.ticks.partition_point(|t| *t <= tick))
    }

    /// Algebra's `prevTickGlobal` for a pool at `tick`: the greatest initialized tick ≤ `tick`, or
    /// the MIN_TICK sentinel Algebra keeps in its list (liquidityNet 0).
    pub fn algebra_prev(&self, tick: i32) -> (i32, i128) {
        self.at_or_below(tick).unwrap_or((MIN_TICK, 0))
    }

    /// Algebra's `nextTickGlobal`: the least initialized tick > `tick`, or the MAX_TICK sentinel.
    pub fn algebra_next(&self, tick: i32) -> (i32, i128) {
        self.above(tick).unwrap_or((MAX_TICK, 0))
    }

    /// Active liquidity implied at `tick`: the sum of liquidityNet over ticks ≤ `tick`; `None` if a
    /// running sum leaves uint128 (inconsistent ticks). Used by tests to check swap end states.
    #[cfg(test)]
    pub fn liquidity_at(&self, tick: i32) -> Option<u128> {
        let mut total: i128 = 0;
        for (t, net) in self.ticks.iter().zip(&self.liquidity_nets) {
            if *t > tick {
                break;
            }
            total = total.checked_add(*net)?;
        }
        u128::try_from(total).ok()
    }
}

#[cfg(test)]
#[path = "tick_list_tests.rs"]
mod tests;
