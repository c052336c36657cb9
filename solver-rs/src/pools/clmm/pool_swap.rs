//! The swap loop of `UniswapV3Pool.swap` and of V4's / Pancake Infinity's `Pool.swap`, for exact
//! input: step to the nearer of the next initialized tick and the bitmap word edge, cross
//! initialized ticks, stop when the input is spent or the price limit is reached.

use super::liquidity_math::add_delta;
use super::swap_math::{compute_swap_step_exact_in, StepRules};
use super::tick_bitmap::next_initialized_tick_within_one_word;
use super::tick_list::TickList;
use super::tick_math::{get_sqrt_ratio_at_tick, get_tick_at_sqrt_ratio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK};
use crate::math::U256;
use crate::pools::PoolError;

/// The mutable part of a concentrated-liquidity pool: Q64.96 square-root price, current tick and
/// active liquidity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClState {
    pub sqrt_price_x96: U256,
    pub tick: i32,
    pub liquidity: u128,
}

/// An exact-input swap's result: output (rounded down by every step), initialized ticks crossed,
/// steps that ended on an empty bitmap word's edge, and the pool state after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapResult {
    pub amount_out: U256,
    pub crossings: u32,
    /// Loop steps that stopped at a word boundary with no initialized tick there: each is one more
    /// iteration of the contract's loop (a bitmap SLOAD and a step computation) that no crossing
    /// explains. Always 0 for Algebra, whose tick walk is a linked list.
    pub words: u32,
    pub state: ClState,
}

/// The price limit our router passes: one inside the bound, so every reachable price is allowed.
pub fn router_price_limit_x96(zero_for_one: bool) -> U256 {
    if zero_for_one {
        MIN_SQRT_RATIO + U256::from(1)
    } else {
        MAX_SQRT_RATIO - U256::from(1)
    }
}

/// Whether the pool accepts `limit` at `sqrt_price_x96` (V3 `SPL`, V4 `PriceLimitAlreadyExceeded`,
/// Algebra `invalidLimitSqrtPrice`): the limit must lie strictly ahead of the price.
pub fn limit_is_ahead(sqrt_price_x96: U256, limit: U256, zero_for_one: bool) -> bool {
    if zero_for_one {
        limit < sqrt_price_x96
    } else {
        limit > sqrt_price_x96
    }
}

/// Runs the V3 / V4 swap loop for `amount_in` (> 0) at `fee_pips`. Errors with
/// `InsufficientLiquidity` when the input is not all spent before the router's price limit.
pub fn swap_exact_in(
    ticks: &TickList,
    tick_spacing: i32,
    start: ClState,
    zero_for_one: bool,
    amount_in: U256,
    fee_pips: u32,
    rules: StepRules,
) -> Result<SwapResult, PoolError> {
    let limit = router_price_limit_x96(zero_for_one);
    if !limit_is_ahead(start.sqrt_price_x96, limit, zero_for_one) {
        return Err(PoolError::InsufficientLiquidity);
    }
    let mut state = start;
    let mut remaining = amount_in;
    let mut amount_out = U256::ZERO;
    let mut crossings = 0u32;
    let mut words = 0u32;
    while !remaining.is_zero() && state.sqrt_price_x96 != limit {
        let step_start_price = state.sqrt_price_x96;
        let (tick_next, liquidity_net) = next_initialized_tick_within_one_word(ticks, state.tick, tick_spacing, zero_for_one)?;
        // The bitmap knows nothing of the tick range; the pool clamps, and so do we.
        let tick_next = tick_next.clamp(MIN_TICK, MAX_TICK);
        let sqrt_price_next = get_sqrt_ratio_at_tick(tick_next)?;
        let target = if zero_for_one { sqrt_price_next.max(limit) } else { sqrt_price_next.min(limit) };
        let step = compute_swap_step_exact_in(state.sqrt_price_x96, target, state.liquidity, remaining, fee_pips, rules)?;
        state.sqrt_price_x96 = step.sqrt_price_next_x96;
        let spent = step.amount_in.checked_add(step.fee_amount).ok_or(PoolError::Overflow)?;
        // Only V3's price-equality edge (a short step booked as a full one) can overspend; the
        // pool would then carry on as an exact-output swap, which our router cannot settle.
        remaining = remaining.checked_sub(spent).ok_or_else(|| {
            PoolError::InvalidState("a step booked more input than remained (V3 rounding edge)".into())
        })?;
        amount_out = amount_out.checked_add(step.amount_out).ok_or(PoolError::Overflow)?;

        if state.sqrt_price_x96 == sqrt_price_next {
            if let Some(net) = liquidity_net {
                // Crossing downward removes what crossing upward adds.
                let delta = if zero_for_one { net.checked_neg().ok_or(PoolError::Overflow)? } else { net };
                state.liquidity = add_delta(state.liquidity, delta)?;
                crossings += 1;
            } else {
                words += 1;
            }
            // Moving down, the pool sits just below the crossed tick.
            state.tick = if zero_for_one { tick_next - 1 } else { tick_next };
        } else if state.sqrt_price_x96 != step_start_price {
            state.tick = get_tick_at_sqrt_ratio(state.sqrt_price_x96)?;
        }
    }
    if !remaining.is_zero() {
        return Err(PoolError::InsufficientLiquidity);
    }
    Ok(SwapResult { amount_out, crossings, words, state })
}
