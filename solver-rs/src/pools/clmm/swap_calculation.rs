//! Algebra Integral 1.2's `SwapCalculation._calculateSwap` loop for exact input. Where it differs
//! from V3's loop, and why it matters for exactness:
//!
//! - It walks the linked list of initialized ticks (`prevTickGlobal` / `nextTickGlobal`), with no
//!   256-tick word edges, so one step may span many words; V3 would split that range into several
//!   steps, each rounding on its own, and the outputs would differ by a few wei.
//! - The step is `PriceMovementMath.movePriceTowardsTarget` (see `price_movement_math.rs`), which
//!   reverts where V3 would book a short step as a full one.
//! - The target is the next tick's price unless the limit is nearer; every reached list tick is
//!   crossed (there is no "uninitialized" target), and the loop stops as soon as a step ends
//!   between ticks.

use super::liquidity_math::add_delta;
use super::pool_swap::{limit_is_ahead, router_price_limit_x96, ClState, SwapResult};
use super::price_movement_math::move_price_towards_target_exact_in;
use super::tick_list::TickList;
use super::tick_math::get_tick_at_sqrt_ratio_near;
use crate::math::U256;
use crate::pools::PoolError;

/// Runs Algebra's swap loop for `amount_in` (> 0) at the total fee `fee_pips` (< 1e6). Errors with
/// `InsufficientLiquidity` when the input is not all spent before the router's price limit.
pub fn calculate_swap_exact_in(
    ticks: &TickList,
    start: ClState,
    zero_to_one: bool,
    amount_in: U256,
    fee_pips: u32,
) -> Result<SwapResult, PoolError> {
    let limit = router_price_limit_x96(zero_to_one);
    if !limit_is_ahead(start.sqrt_price_x96, limit, zero_to_one) {
        return Err(PoolError::InsufficientLiquidity);
    }
    let mut state = start;
    let mut prev = ticks.algebra_prev(state.tick);
    let mut next = ticks.algebra_next(state.tick);
    let mut remaining = amount_in;
    let mut amount_out = U256::ZERO;
    let mut crossings = 0u32;
    loop {
        let target_tick = if zero_to_one { prev } else { next };
        let (next_tick, liquidity_net) = (target_tick.tick, target_tick.liquidity_net);
        let step_start_price = state.sqrt_price_x96;
        // The tick list's table holds the price TickMath gives this tick.
        let next_tick_price = target_tick.sqrt_price_x96;
        let beyond_limit =
            if zero_to_one { next_tick_price < limit } else { next_tick_price > limit };
        let target = if beyond_limit { limit } else { next_tick_price };
        let step = move_price_towards_target_exact_in(
            zero_to_one,
            state.sqrt_price_x96,
            target,
            state.liquidity,
            remaining,
            fee_pips,
        )?;
        state.sqrt_price_x96 = step.sqrt_price_next_x96;
        let spent = step.amount_in.checked_add(step.fee_amount).ok_or(PoolError::Overflow)?;
        remaining = remaining.checked_sub(spent).ok_or(PoolError::Overflow)?;
        amount_out = amount_out.checked_add(step.amount_out).ok_or(PoolError::Overflow)?;

        if state.sqrt_price_x96 == next_tick_price {
            crossings = crossings.saturating_add(1);
            if zero_to_one {
                state.liquidity = add_delta(
                    state.liquidity,
                    liquidity_net.checked_neg().ok_or(PoolError::Overflow)?,
                )?;
                // Ticks lie far above i32::MIN.
                state.tick = next_tick.saturating_sub(1);
                next = prev;
                prev = ticks.algebra_prev(next_tick.saturating_sub(1));
            } else {
                state.liquidity = add_delta(state.liquidity, liquidity_net)?;
                state.tick = next_tick;
                prev = next;
                next = ticks.algebra_next(next_tick);
            }
        } else if state.sqrt_price_x96 != step_start_price {
            state.tick = get_tick_at_sqrt_ratio_near(state.sqrt_price_x96, state.tick)?;
            break;
        }
        if remaining.is_zero() || state.sqrt_price_x96 == limit {
            break;
        }
    }
    if !remaining.is_zero() {
        return Err(PoolError::InsufficientLiquidity);
    }
    // The tick tree is a linked list of initialized ticks: no empty bitmap word is ever a step.
    Ok(SwapResult { amount_out, crossings, words: 0, state })
}
