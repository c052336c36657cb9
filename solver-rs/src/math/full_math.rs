//! `mulDiv` with explicit rounding, as Uniswap's `FullMath` computes it: the product is taken at
//! 512 bits so it never overflows, and only a quotient that does not fit 256 bits is an error.

use super::{U256, U512};
use ruint::UintTryFrom;
use crate::pools::PoolError;

/// floor(a * b / denominator); errors when `denominator` is zero or the quotient exceeds 256 bits.
pub fn mul_div(a: U256, b: U256, denominator: U256) -> Result<U256, PoolError> {
    if denominator.is_zero() {
        return Err(PoolError::DivisionByZero);
    }
    // Fast path: the product fits in 256 bits, so a plain division is exact.
    if let Some(product) = a.checked_mul(b) {
        return Ok(product / denominator);
    }
    let product: U512 = a.widening_mul(b);
    let quotient = product / U512::from(denominator);
    U256::uint_try_from(quotient).map_err(|_| PoolError::Overflow)
}

/// ceil(a * b / denominator); errors like [`mul_div`], and when rounding up overflows.
pub fn mul_div_rounding_up(a: U256, b: U256, denominator: U256) -> Result<U256, PoolError> {
    if denominator.is_zero() {
        return Err(PoolError::DivisionByZero);
    }
    if let Some(product) = a.checked_mul(b) {
        let (quotient, remainder) = product.div_rem(denominator);
        return if remainder.is_zero() {
            Ok(quotient)
        } else {
            quotient.checked_add(U256::from(1)).ok_or(PoolError::Overflow)
        };
    }
    let product: U512 = a.widening_mul(b);
    let (quotient, remainder) = product.div_rem(U512::from(denominator));
    let quotient = U256::uint_try_from(quotient).map_err(|_| PoolError::Overflow)?;
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
    let (quotient, remainder) = a.div_rem(b);
    Ok(if remainder.is_zero() { quotient } else { quotient + U256::from(1) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn u(x: u128) -> U256 {
        U256::from(x)
    }

    #[test]
    fn exact_and_rounded() {
        assert_eq!(mul_div(u(7), u(3), u(2)).unwrap(), u(10));
        assert_eq!(mul_div_rounding_up(u(7), u(3), u(2)).unwrap(), u(11));
        assert_eq!(mul_div_rounding_up(u(6), u(3), u(2)).unwrap(), u(9));
        assert_eq!(div_rounding_up(u(7), u(2)).unwrap(), u(4));
    }

    #[test]
    fn wide_product_with_narrow_quotient() {
        // (2^255 * 2^255) / 2^254 = 2^256 does not fit; (2^255 * 6) / 3 = 2^256 does not fit either.
        let big = U256::from(1) << 255;
        assert_eq!(mul_div(big, big, big).unwrap(), big);
        assert_eq!(mul_div(big, u(4), u(8)).unwrap(), U256::from(1) << 254);
        assert!(matches!(mul_div(big, u(6), u(3)), Err(PoolError::Overflow)));
        assert_eq!(mul_div(U256::MAX, U256::MAX, U256::MAX).unwrap(), U256::MAX);
        assert!(matches!(mul_div_rounding_up(U256::MAX, U256::MAX, U256::MAX - u(1)), Err(PoolError::Overflow)));
    }

    #[test]
    fn zero_denominator_is_an_error() {
        assert!(matches!(mul_div(u(1), u(1), U256::ZERO), Err(PoolError::DivisionByZero)));
        assert!(matches!(mul_div_rounding_up(u(1), u(1), U256::ZERO), Err(PoolError::DivisionByZero)));
        assert!(matches!(div_rounding_up(u(1), U256::ZERO), Err(PoolError::DivisionByZero)));
    }

    proptest! {
        #[test]
        fn round_up_is_floor_plus_remainder_flag(a in any::<u128>(), b in any::<u128>(), d in 1u128..) {
            let floor = mul_div(u(a), u(b), u(d)).unwrap();
            let ceil = mul_div_rounding_up(u(a), u(b), u(d)).unwrap();
            let exact = (u(a) * u(b)) % u(d) == U256::ZERO;
            prop_assert_eq!(ceil, if exact { floor } else { floor + u(1) });
            prop_assert!(floor * u(d) <= u(a) * u(b));
        }
    }
}
