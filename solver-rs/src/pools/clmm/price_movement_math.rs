//! Algebra Integral 1.2's `PriceMovementMath.movePriceTowardsTarget` for exact input. It uses the
//! same `TokenDeltaMath` / `getNewPrice` roundings as V3's SqrtPriceMath, and the same fee rounding;
//! it differs from V3's `computeSwapStep` in one place:
//!
//! - V3 decides "target reached" by comparing the *rounded price* with the target, so a short step
//!   whose price rounds onto the target is booked as a full step (target input plus a computed fee,
//!   which can exceed what was left). Algebra decides by comparing *amounts* and, when the input
//!   falls short, asserts that the price did not land on the target: the swap reverts (panic 0x01)
//!   instead. Here that is an error, so the solver never routes through a swap that would revert.

use super::sqrt_price_math::get_next_sqrt_price_from_input;
use super::swap_math::{amount_in_between, amount_out_between, SwapStep, MAX_FEE_PIPS};
use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

/// One exact-input Algebra step toward `target_price_x96` with at most `amount_available` of input
/// (fee included) at `fee_pips` (< 1e6). Input rounds up, output down, a full step's fee up.
pub fn move_price_towards_target_exact_in(
    zero_to_one: bool,
    current_price_x96: U256,
    target_price_x96: U256,
    liquidity: u128,
    amount_available: U256,
    fee_pips: u32,
) -> Result<SwapStep, PoolError> {
    if fee_pips >= MAX_FEE_PIPS {
        // The pool reverts with `incorrectPluginFee` before any step.
        return Err(PoolError::InvalidState(format!("Algebra fee of {fee_pips} pips")));
    }
    let fee = U256::from(fee_pips);
    let fee_complement = U256::from(MAX_FEE_PIPS.saturating_sub(fee_pips));
    let amount_after_fee = mul_div(amount_available, fee_complement, U256::from(MAX_FEE_PIPS))?;
    let input_to_target =
        amount_in_between(current_price_x96, target_price_x96, liquidity, zero_to_one)?;

    let (result_price, input, fee_amount) = if amount_after_fee >= input_to_target {
        let fee_amount = mul_div_rounding_up(input_to_target, fee, fee_complement)?;
        (target_price_x96, input_to_target, fee_amount)
    } else {
        let result_price = get_next_sqrt_price_from_input(
            current_price_x96,
            liquidity,
            amount_after_fee,
            zero_to_one,
        )?;
        if result_price == target_price_x96 {
            // Algebra's `assert(targetPrice != resultPrice)`: the contract reverts here.
            return Err(PoolError::InvalidState(
                "Algebra step landed on its target with input to spare".into(),
            ));
        }
        let input = amount_in_between(current_price_x96, result_price, liquidity, zero_to_one)?;
        // "Take the remainder of the maximum input as fee": input ≤ available by the roundings.
        let fee_amount = amount_available.checked_sub(input).ok_or(PoolError::Overflow)?;
        (result_price, input, fee_amount)
    };
    let amount_out = amount_out_between(current_price_x96, result_price, liquidity, zero_to_one)?;
    Ok(SwapStep { sqrt_price_next_x96: result_price, amount_in: input, amount_out, fee_amount })
}

#[cfg(test)]
#[path = "price_movement_math_tests.rs"]
mod tests;
