//! `mulDiv` with explicit rounding, as Uniswap's `FullMath` computes it: the product is taken at
//! 512 bits so it never overflows, and only a quotient that does not fit 256 bits is an error.

use super::div::{div_rem, div_rem_wide};
use super::U256;
use crate::pools::PoolError;

/// floor(a * b / denominator); errors when `denominator` is zero or the quotient exceeds 256 bits.
pub fn mul_div(a: U256, b: U256, denominator: U256) -> Result<U256, PoolError> {
    Ok(mul_div_rem(a, b, denominator)?.0)
}

/// ceil(a * b / denominator); errors like [`mul_div`], and when rounding up overflows.
pub fn mul_div_rounding_up(a: U256, b: U256, denominator: U256) -> Result<U256, PoolError> {
    let (quotient, remainder) = mul_div_rem(a, b, denominator)?;
    if remainder.is_zero() {
        Ok(quotient)
    } else {
        quotient.checked_add(U256::from(1)).ok_or(PoolError::Overflow)
    }
}

/// ceil(a / b) for b > 0, as `UnsafeMath.divRoundingUp`.
pub fn div_rounding_up(a: U256, b: U256) -> Result<U256, PoolError> {
    if b.is_zero() {
        return Err(PoolError::DivisionByZero);
    }
    let (quotient, remainder) = div_rem(a, b);
    Ok(if remainder.is_zero() { quotient } else { quotient + U256::from(1) })
}

/// (⌊a·b / denominator⌋, a·b mod denominator), the product taken at 512 bits; errors like
/// [`mul_div`].
pub fn mul_div_rem(a: U256, b: U256, denominator: U256) -> Result<(U256, U256), PoolError> {
    if denominator.is_zero() {
        return Err(PoolError::DivisionByZero);
    }
    let product = a.widening_mul::<256, 4, 512, 8>(b);
    let limbs = product.as_limbs();
    let low = U256::from_limbs([limbs[0], limbs[1], limbs[2], limbs[3]]);
    let high = U256::from_limbs([limbs[4], limbs[5], limbs[6], limbs[7]]);
    div_rem_wide(low, high, denominator).ok_or(PoolError::Overflow)
}

#[cfg(test)]
#[path = "full_math_tests.rs"]
mod tests;
