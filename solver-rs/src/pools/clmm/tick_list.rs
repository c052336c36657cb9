//! The pool's initialized ticks, sorted and immutable, shared behind an `Arc` by every state the
//! pool passes through (a swap changes price, tick and active liquidity, never the ticks), with
//! each tick's square-root price computed once when the list is built: the swap loops step to
//! initialized ticks on every swap of every quote, and TickMath costs about 20 wide
//! multiplications (and, above tick 0, a 256-bit division) per tick.

use super::tick_math::{
    compute_sqrt_ratio_at_tick, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK,
};
use crate::math::U256;
use crate::pools::PoolError;

/// Initialized ticks in strictly ascending order with their liquidityNet (added when crossed
/// upward, subtracted when crossed downward) and their TickMath square-root prices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TickList {
    ticks: Vec<i32>,
    liquidity_nets: Vec<i128>,
    /// `get_sqrt_ratio_at_tick(ticks[i])`, Q64.96, the same U256 (tick_list_tests.rs).
    sqrt_prices_x96: Vec<U256>,
}

/// An initialized tick: where it is, its liquidityNet, and its square-root price (Q64.96, exactly
/// TickMath's, rounded up as the contract rounds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitializedTick {
    pub tick: i32,
    pub liquidity_net: i128,
    pub sqrt_price_x96: U256,
}

impl TickList {
    /// Builds the list and its price table; the caller has checked the order (see `wire.rs`).
    /// Errors when a tick lies outside [MIN_TICK, MAX_TICK] (no square-root price there).
    pub fn from_sorted(entries: Vec<(i32, i128)>) -> Result<Self, PoolError> {
        let (ticks, liquidity_nets): (Vec<i32>, Vec<i128>) = entries.into_iter().unzip();
        let sqrt_prices_x96 =
            ticks.iter().map(|t| compute_sqrt_ratio_at_tick(*t)).collect::<Result<_, _>>()?;
        Ok(TickList { ticks, liquidity_nets, sqrt_prices_x96 })
    }

    /// The `index`-th tick with its liquidityNet and square-root price.
    fn initialized(&self, index: usize) -> Option<InitializedTick> {
        Some(InitializedTick {
            tick: *self.ticks.get(index)?,
            liquidity_net: *self.liquidity_nets.get(index)?,
            sqrt_price_x96: *self.sqrt_prices_x96.get(index)?,
        })
    }

    /// The greatest initialized tick ≤ `tick`, priced.
    pub fn initialized_at_or_below(&self, tick: i32) -> Option<InitializedTick> {
        let count_at_or_below = self.ticks.partition_point(|t| *t <= tick);
        count_at_or_below.checked_sub(1).and_then(|i| self.initialized(i))
    }

    /// The least initialized tick > `tick`, priced.
    pub fn initialized_above(&self, tick: i32) -> Option<InitializedTick> {
        self.initialized(self.ticks.partition_point(|t| *t <= tick))
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
    /// the MIN_TICK sentinel Algebra keeps in its list (liquidityNet 0, at MIN_SQRT_RATIO, its
    /// TickMath price).
    pub fn algebra_prev(&self, tick: i32) -> InitializedTick {
        self.initialized_at_or_below(tick).unwrap_or(InitializedTick {
            tick: MIN_TICK,
            liquidity_net: 0,
            sqrt_price_x96: MIN_SQRT_RATIO,
        })
    }

    /// Algebra's `nextTickGlobal`: the least initialized tick > `tick`, or the MAX_TICK sentinel
    /// (liquidityNet 0, at MAX_SQRT_RATIO, its TickMath price).
    pub fn algebra_next(&self, tick: i32) -> InitializedTick {
        self.initialized_above(tick).unwrap_or(InitializedTick {
            tick: MAX_TICK,
            liquidity_net: 0,
            sqrt_price_x96: MAX_SQRT_RATIO,
        })
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
