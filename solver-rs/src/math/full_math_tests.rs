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
    assert!(matches!(
        mul_div_rounding_up(U256::MAX, U256::MAX, U256::MAX - u(1)),
        Err(PoolError::Overflow)
    ));
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
