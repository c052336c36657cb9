//! `UniswapV2Library.getAmountOut`, generalised to a fee in basis points.

use crate::math::div::div_rem;
use crate::math::U256;
use crate::pools::PoolError;

/// Basis-point denominator.
pub const BPS: u32 = 10_000;

/// floor(in·(10⁴−fee)·R_out / (R_in·10⁴ + in·(10⁴−fee))): the largest output the pair's K check
/// accepts. Rounded down, as the pair requires. Errors on empty reserves, as the library does.
pub fn amount_out(
    amount_in: U256,
    reserve_in: U256,
    reserve_out: U256,
    fee_bps: u32,
) -> Result<U256, PoolError> {
    if reserve_in.is_zero() || reserve_out.is_zero() {
        return Err(PoolError::InsufficientLiquidity);
    }
    if fee_bps >= BPS {
        return Err(PoolError::InvalidState(format!("fee of {fee_bps} bps")));
    }
    if amount_in.is_zero() {
        return Ok(U256::ZERO);
    }
    let amount_in_with_fee = amount_in
        .checked_mul(U256::from(BPS.saturating_sub(fee_bps)))
        .ok_or(PoolError::Overflow)?;
    let numerator = amount_in_with_fee.checked_mul(reserve_out).ok_or(PoolError::Overflow)?;
    let denominator = reserve_in
        .checked_mul(U256::from(BPS))
        .and_then(|d| d.checked_add(amount_in_with_fee))
        .ok_or(PoolError::Overflow)?;
    let out = div_rem(numerator, denominator).0;
    if out.is_zero() {
        // The pair reverts with INSUFFICIENT_OUTPUT_AMOUNT on a zero output.
        return Err(PoolError::InsufficientLiquidity);
    }
    Ok(out)
}

#[cfg(test)]
#[path = "math_tests.rs"]
mod tests;
