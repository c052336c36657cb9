//! `SwapMath.computeSwapStep` for exact input, in Uniswap V3's form and in V4's (which Pancake
//! Infinity CL shares). The two agree on the price and the output of a step; they differ in how the
//! step's input and fee are split when the target is not reached, and V4 admits a 100% fee.

use super::sqrt_price_math::{
    get_amount0_delta, get_amount1_delta, get_next_sqrt_price_from_input,
};
use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

/// Fee denominator: fees are in pips, hundredths of a basis point (1e6 = 100%).
pub const MAX_FEE_PIPS: u32 = 1_000_000;

/// Which contract's step rules to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRules {
    /// Uniswap V3 and its forks: fee < 100%; a step that stops short recomputes its input from the
    /// price it reached.
    V3,
    /// Uniswap V4 / Pancake Infinity: fee ≤ 100%; a step that stops short takes all the fee-less
    /// remainder as its input.
    V4,
}

/// One exact-input step: the price reached (Q64.96), the input used (fee excluded), the output paid
/// (rounded down) and the fee charged (rounded up when computed from the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapStep {
    pub sqrt_price_next_x96: U256,
    pub amount_in: U256,
    pub amount_out: U256,
    pub fee_amount: U256,
}

/// Moves the price from `sqrt_price_current_x96` toward `sqrt_price_target_x96` with at most
/// `amount_remaining` of input (fee included), as `SwapMath.computeSwapStep` does for exact input;
/// and the input to the target (fee excluded, rounded up) it worked out on the way.
/// `known_amount_in_to_target`, when given, must be that input as an earlier step from the same
/// price, liquidity and target computed it (`tick_walk.rs` keeps it): a pure function of the
/// three, so taking it is exact and saves its 256-bit divisions.
pub fn compute_swap_step_exact_in(
    sqrt_price_current_x96: U256,
    sqrt_price_target_x96: U256,
    liquidity: u128,
    amount_remaining: U256,
    fee_pips: u32,
    rules: StepRules,
    known_amount_in_to_target: Option<U256>,
) -> Result<(SwapStep, U256), PoolError> {
    let fee_limit = match rules {
        StepRules::V3 => MAX_FEE_PIPS - 1,
        StepRules::V4 => MAX_FEE_PIPS,
    };
    if fee_pips > fee_limit {
        return Err(PoolError::InvalidState(format!("swap fee of {fee_pips} pips")));
    }
    let zero_for_one = sqrt_price_current_x96 >= sqrt_price_target_x96;
    let fee = U256::from(fee_pips);
    // fee_pips ≤ MAX_FEE_PIPS (checked above).
    let fee_complement = U256::from(MAX_FEE_PIPS.saturating_sub(fee_pips));
    // The fee comes off the top, floored: the pool never credits more input than was paid for.
    let amount_remaining_less_fee =
        mul_div(amount_remaining, fee_complement, U256::from(MAX_FEE_PIPS))?;
    let amount_in_to_target = match known_amount_in_to_target {
        Some(amount) => amount,
        None => amount_in_between(
            sqrt_price_current_x96,
            sqrt_price_target_x96,
            liquidity,
            zero_for_one,
        )?,
    };

    let reaches_target = amount_remaining_less_fee >= amount_in_to_target;
    let sqrt_price_next_x96 = if reaches_target {
        sqrt_price_target_x96
    } else {
        get_next_sqrt_price_from_input(
            sqrt_price_current_x96,
            liquidity,
            amount_remaining_less_fee,
            zero_for_one,
        )?
    };

    let (amount_in, fee_amount) = match (rules, reaches_target) {
        (StepRules::V4, true) => {
            // V4 guards the 100% fee (where the complement is zero): the input is then zero too.
            let fee_amount = if fee_pips == MAX_FEE_PIPS {
                amount_in_to_target
            } else {
                mul_div_rounding_up(amount_in_to_target, fee, fee_complement)?
            };
            (amount_in_to_target, fee_amount)
        }
        (StepRules::V4, false) => {
            // V4 books the whole fee-less remainder as input, even if the rounded price would have
            // needed less; the rest of the remainder is the fee. Output is the same as V3's.
            // What is left after the fee is at most the remainder.
            (amount_remaining_less_fee, amount_remaining.saturating_sub(amount_remaining_less_fee))
        }
        (StepRules::V3, _) => {
            // V3 decides "target reached" by comparing prices, not amounts: a short step whose
            // rounded price lands exactly on the target keeps the target's input and a computed fee.
            let max = sqrt_price_next_x96 == sqrt_price_target_x96;
            let amount_in = if max {
                amount_in_to_target
            } else {
                amount_in_between(
                    sqrt_price_current_x96,
                    sqrt_price_next_x96,
                    liquidity,
                    zero_for_one,
                )?
            };
            let fee_amount = if max {
                mul_div_rounding_up(amount_in, fee, fee_complement)?
            } else {
                // The input was rounded up from the price, so it never exceeds the remainder.
                amount_remaining.checked_sub(amount_in).ok_or(PoolError::Overflow)?
            };
            (amount_in, fee_amount)
        }
    };
    let amount_out =
        amount_out_between(sqrt_price_current_x96, sqrt_price_next_x96, liquidity, zero_for_one)?;
    Ok((SwapStep { sqrt_price_next_x96, amount_in, amount_out, fee_amount }, amount_in_to_target))
}

/// Input to move the price from `from` to `to`, rounded up (the pool receives it).
pub fn amount_in_between(
    from: U256,
    to: U256,
    liquidity: u128,
    zero_for_one: bool,
) -> Result<U256, PoolError> {
    if zero_for_one {
        get_amount0_delta(to, from, liquidity, true)
    } else {
        get_amount1_delta(from, to, liquidity, true)
    }
}

/// Output for moving the price from `from` to `to`, rounded down (the pool pays it).
pub fn amount_out_between(
    from: U256,
    to: U256,
    liquidity: u128,
    zero_for_one: bool,
) -> Result<U256, PoolError> {
    if zero_for_one {
        get_amount1_delta(to, from, liquidity, false)
    } else {
        get_amount0_delta(from, to, liquidity, false)
    }
}

#[cfg(test)]
#[path = "swap_math_tests.rs"]
mod tests;
