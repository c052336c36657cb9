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
