//! `SqrtPriceMath`: token amounts between two square-root prices and the price after an input, with
//! Uniswap V3's rounding (V4, Pancake Infinity and Algebra's `TokenDeltaMath` / `getNewPrice`
//! round the same way). Every rounding favours the pool: amounts it receives round up, amounts it
//! pays round down, and a price moved by an input moves no further than the input pays for.

use super::fixed_point_96::mul_shr_96;
use crate::math::div::div_rem;
use crate::math::full_math::{div_rounding_up, mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

pub use super::fixed_point_96::Q96;
/// The largest uint160, the width of a stored square-root price.
pub const MAX_U160: U256 = U256::from_limbs([u64::MAX, u64::MAX, u32::MAX as u64, 0]);

/// Token0 between two square-root prices (Q64.96) for `liquidity`: L·2^96·(√b−√a)/(√b·√a), rounded
/// up when the pool receives it (`round_up`), down when it pays it. Errors on a zero price.
pub fn get_amount0_delta(
    sqrt_ratio_a_x96: U256,
    sqrt_ratio_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, PoolError> {
    let (lower, upper) = ordered(sqrt_ratio_a_x96, sqrt_ratio_b_x96);
    if lower.is_zero() {
        return Err(PoolError::InvalidState("zero sqrt price".into()));
    }
    // L < 2^128, so L·2^96 keeps every bit; `ordered` puts upper ≥ lower.
    let numerator1: U256 = U256::from(liquidity).wrapping_shl(96);
    let numerator2 = upper.saturating_sub(lower);
    if round_up {
        // Two ceilings in a row, as the contract does: the pool never receives less than owed.
        div_rounding_up(mul_div_rounding_up(numerator1, numerator2, upper)?, lower)
    } else {
        Ok(div_rem(mul_div(numerator1, numerator2, upper)?, lower).0)
    }
}

/// Token1 between two square-root prices (Q64.96): L·(√b−√a)/2^96, rounded up when the pool
/// receives it (`round_up`), down when it pays it.
pub fn get_amount1_delta(
    sqrt_ratio_a_x96: U256,
    sqrt_ratio_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, PoolError> {
    let (lower, upper) = ordered(sqrt_ratio_a_x96, sqrt_ratio_b_x96);
    // `mulDiv(L, Δ, Q96)` and `mulDivRoundingUp`: the division by 2^96 is a shift.
    let (quotient, inexact) = mul_shr_96(upper.saturating_sub(lower), liquidity)?;
    if round_up && inexact {
        quotient.checked_add(U256::from(1)).ok_or(PoolError::Overflow)
    } else {
        Ok(quotient)
    }
}

/// The square-root price (Q64.96) after `amount_in` of token0 (`zero_for_one`) or token1 enters at
/// `sqrt_price_x96`. Errors on a zero price or liquidity (the contract's `require`s) and when the
/// result leaves uint160.
pub fn get_next_sqrt_price_from_input(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount_in: U256,
    zero_for_one: bool,
) -> Result<U256, PoolError> {
    if sqrt_price_x96.is_zero() {
        return Err(PoolError::InvalidState("zero sqrt price".into()));
    }
    if liquidity == 0 {
        return Err(PoolError::DivisionByZero);
    }
    if zero_for_one {
        next_price_from_amount0_rounding_up(sqrt_price_x96, liquidity, amount_in)
    } else {
        next_price_from_amount1_rounding_down(sqrt_price_x96, liquidity, amount_in)
    }
}

/// √P' = L·2^96·√P / (L·2^96 + in·√P), rounded up: token0 in lowers the price, and rounding up
/// keeps the price from moving further than the input pays for.
fn next_price_from_amount0_rounding_up(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount: U256,
) -> Result<U256, PoolError> {
    if amount.is_zero() {
        return Ok(sqrt_price_x96);
    }
    // L < 2^128, so L·2^96 keeps every bit.
    let numerator1: U256 = U256::from(liquidity).wrapping_shl(96);
    if let Some(product) = amount.checked_mul(sqrt_price_x96) {
        if let Some(denominator) = numerator1.checked_add(product) {
            // The contract takes this path only when neither step overflows; the result fits 160 bits.
            return mul_div_rounding_up(numerator1, sqrt_price_x96, denominator);
        }
    }
    // The contract's fallback form L·2^96 / (L·2^96/√P + in), also rounded up; its checked add
    // reverts on overflow, which is an error here.
    let denominator =
        div_rem(numerator1, sqrt_price_x96).0.checked_add(amount).ok_or(PoolError::Overflow)?;
    div_rounding_up(numerator1, denominator)
}

/// √P' = √P + in·2^96/L, the quotient rounded down: token1 in raises the price, and rounding down
/// keeps the price from moving further than the input pays for.
fn next_price_from_amount1_rounding_down(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount: U256,
) -> Result<U256, PoolError> {
    let liquidity = U256::from(liquidity);
    let quotient = if amount <= MAX_U160 {
        // amount < 2^160: the shift keeps every bit.
        div_rem(amount.wrapping_shl(96), liquidity).0
    } else {
        mul_div(amount, Q96, liquidity)?
    };
    let next = sqrt_price_x96.checked_add(quotient).ok_or(PoolError::Overflow)?;
    // `toUint160` in the contract: a price that leaves 160 bits reverts.
    if next > MAX_U160 {
        return Err(PoolError::Overflow);
    }
    Ok(next)
}

fn ordered(a: U256, b: U256) -> (U256, U256) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

#[cfg(test)]
#[path = "sqrt_price_math_tests.rs"]
mod tests;
