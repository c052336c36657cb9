//! int256's checked operators and truncating division against i128 where both fit, and at the
//! edges of int256.

use super::I256;
use crate::math::U256;

#[test]
fn operators_agree_with_i128() {
    let values: [i128; 9] = [
        0,
        1,
        -1,
        7,
        -7,
        1_000_000_000_000_000_000,
        -999_999_999_999,
        i64::MAX.into(),
        i64::MIN.into(),
    ];
    for &a in &values {
        for &b in &values {
            let (x, y) = (I256::from_i128(a), I256::from_i128(b));
            assert_eq!(x.add(y).unwrap(), I256::from_i128(a + b));
            assert_eq!(x.sub(y).unwrap(), I256::from_i128(a - b));
            assert_eq!(x.mul(y).unwrap(), I256::from_i128(a * b));
            assert_eq!(x.cmp(&y), a.cmp(&b));
            if b != 0 {
                // Rust's i128 `/` and `%` truncate toward zero, as Solidity's do.
                assert_eq!(x.div(y).unwrap(), I256::from_i128(a / b));
                assert_eq!(x.rem(y).unwrap(), I256::from_i128(a % b));
            } else {
                assert!(x.div(y).is_err() && x.rem(y).is_err());
            }
            assert_eq!(x.to_string(), a.to_string());
            assert_eq!(a.to_string().parse::<I256>().unwrap(), x);
        }
    }
}

#[test]
fn int256_edges_are_errors_not_wraps() {
    let max: I256 = "57896044618658097711785492504343953926634992332820282019728792003956564819967"
        .parse()
        .unwrap();
    let min = max.neg().unwrap().sub(I256::from_i128(1)).unwrap();
    assert!(max.add(I256::from_i128(1)).is_err());
    assert!(min.sub(I256::from_i128(1)).is_err());
    assert!(min.neg().is_err());
    assert!(min.div(I256::from_i128(-1)).is_err());
    assert!(max.mul(I256::from_i128(2)).is_err());
    assert_eq!(min.magnitude(), U256::from(1) << 255);
    assert!(I256::from_unsigned(U256::from(1) << 255).is_err());
    assert!(I256::from_i128(-1).to_unsigned().is_err());
    assert!("57896044618658097711785492504343953926634992332820282019728792003956564819968"
        .parse::<I256>()
        .is_err());
}
