//! The pool's tick walk (the stand-in's `_walk` and `swap`): from the active tick, skip empty
//! ticks, swap in the first one holding reserves, move on while input is left; past the tick limit
//! stop, the active tick put back one step from where that round began, and the input charged is
//! what was used, rounded up to the token (rounded down when all of it was used, which is then
//! exactly the amount given).

use super::tick_math::{price_in_tick, swap_tick, tick_liquidity, TickQuote};
use super::{MaverickPool, Tick};
use crate::math::checked::{add, div, mul};
use crate::math::full_math::div_rounding_up;
use crate::math::U256;
use crate::pools::{PoolError, SwapOutcome};

/// A swap's result: token amounts in and out, whether the walk stopped at its limit with input
/// left, the ticks it crossed, and the pool after it.
#[derive(Clone, Debug)]
pub struct Swapped {
    pub amount_in: U256,
    pub amount_out: U256,
    pub capped: bool,
    pub crossings: u32,
    pub pool: MaverickPool,
}

impl Swapped {
    pub fn outcome(&self) -> SwapOutcome {
        SwapOutcome { amount_out: self.amount_out, crossings: self.crossings, words: 0 }
    }
}

fn step_from(tick: i32, up: bool) -> Result<i32, PoolError> {
    let next = if up { tick.checked_add(1) } else { tick.checked_sub(1) };
    next.ok_or(PoolError::Overflow)
}

impl MaverickPool {
    /// The position in `ticks` of the first tick holding reserves at or past `start` in the walk's
    /// direction (up for A in).
    pub(super) fn next_filled(&self, start: i32, up: bool) -> Option<usize> {
        if up {
            let from = self.ticks.partition_point(|t| t.index < start);
            (from..self.ticks.len()).find(|&k| !self.ticks[k].is_empty())
        } else {
            let to = self.ticks.partition_point(|t| t.index <= start);
            (0..to).rev().find(|&k| !self.ticks[k].is_empty())
        }
    }

    /// The tick's swap parameters: its liquidity and the price inside it.
    pub(super) fn quote_of(&self, tick: &Tick, token_a_in: bool) -> Result<TickQuote, PoolError> {
        let [a, b] = tick.reserves;
        let liquidity = tick_liquidity(a, b, tick.lower, tick.upper)?;
        let price = price_in_tick(a, b, tick.lower, tick.upper, liquidity)?;
        Ok(TickQuote {
            price,
            liquidity,
            reserve_a: a,
            reserve_b: b,
            fee: self.fees[usize::from(!token_a_in)],
            ratio_d3: self.protocol_fee_ratio_d3,
        })
    }

    /// `swap(recipient, {amount, tokenAIn, exactOutput: false, tickLimit}, data)`: `limit` None
    /// walks as far as the listed ticks go (then stops as past a limit). Errors where the pool
    /// reverts: a limit behind the active tick (`BeyondSwapLimit`), a tick's reserve past uint128
    /// (`ReserveOverflow`), its checked arithmetic.
    pub fn swap_to_limit(
        &self,
        token_a_in: bool,
        amount: U256,
        limit: Option<i32>,
    ) -> Result<Swapped, PoolError> {
        let beyond = |t: i32| match limit {
            Some(l) if token_a_in => t > l,
            Some(l) => t < l,
            None => false,
        };
        if beyond(self.active_tick) {
            return Err(PoolError::Refused(format!(
                "BeyondSwapLimit: active tick {} is past the limit",
                self.active_tick
            )));
        }
        let (scale_in, scale_out) = if token_a_in {
            (self.scales[0], self.scales[1])
        } else {
            (self.scales[1], self.scales[0])
        };
        let mut pool = self.clone();
        let mut left = mul(amount, scale_in)?;
        let (mut total_in, mut total_out) = (U256::ZERO, U256::ZERO);
        let (mut capped, mut swapped_ticks) = (false, 0u32);
        while !left.is_zero() {
            let start = pool.active_tick;
            let found = if beyond(start) { None } else { pool.next_filled(start, token_a_in) };
            let Some(k) = found.filter(|&k| !beyond(pool.ticks[k].index)) else {
                pool.active_tick = step_from(start, !token_a_in)?;
                capped = true;
                break;
            };
            let tick = &pool.ticks[k];
            let d = swap_tick(&pool.quote_of(tick, token_a_in)?, left, token_a_in)?;
            let [a, b] = tick.reserves;
            let reserves = if token_a_in {
                [
                    add(a, d.kept)?,
                    if d.excess.is_zero() { b.saturating_sub(d.out) } else { U256::ZERO },
                ]
            } else {
                [
                    if d.excess.is_zero() { a.saturating_sub(d.out) } else { U256::ZERO },
                    add(b, d.kept)?,
                ]
            };
            if reserves.iter().any(|r| *r > U256::from(u128::MAX)) {
                return Err(PoolError::Overflow);
            }
            let index = tick.index;
            pool.ticks[k].reserves = reserves;
            total_in = add(total_in, d.spent)?;
            total_out = add(total_out, d.out)?;
            swapped_ticks = swapped_ticks.saturating_add(1);
            left = d.excess;
            pool.active_tick = if left.is_zero() { index } else { step_from(index, token_a_in)? };
        }
        let amount_in = if scale_in == U256::from(1u8) || total_in.is_zero() {
            total_in
        } else if capped {
            div_rounding_up(total_in, scale_in)?
        } else {
            div(total_in, scale_in)?
        };
        Ok(Swapped {
            amount_in,
            amount_out: div(total_out, scale_out)?,
            capped,
            crossings: swapped_ticks.saturating_sub(1),
            pool,
        })
    }
}
