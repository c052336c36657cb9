use super::*;
use proptest::prelude::*;

use crate::math::U256;

fn expected_reciprocal_2(d: u128) -> u64 {
    let r: U256 = (U256::MAX >> 64usize) / U256::from(d) - (U256::from(1u8) << 64usize);
    r.as_limbs()[0]
}

fn expected_3_by_2(high: u128, low: u64, d: u128) -> (u64, u128) {
    let x: U256 = (U256::from(high) << 64usize) | U256::from(low);
    let (q, r) = x.div_rem(U256::from(d));
    (q.as_limbs()[0], u128::from(r.as_limbs()[0]) | u128::from(r.as_limbs()[1]) << 64)
}

fn expected_reciprocal(d: u64) -> u64 {
    (u128::MAX / u128::from(d) - (1u128 << 64)) as u64
}

#[test]
fn seed_table_ends() {
    assert_eq!(RECIPROCAL_SEED[0], 2045);
    assert_eq!(RECIPROCAL_SEED[255], 1024);
}

#[test]
fn reciprocal_at_the_edges() {
    let top = 1u64 << 63;
    for d in [
        top,
        top + 1,
        top + 2,
        u64::MAX,
        u64::MAX - 1,
        top | (top >> 1),
        top | 0xffff_ffff,
        0xc000_0000_0000_0001,
    ] {
        assert_eq!(reciprocal(d), expected_reciprocal(d), "{d:#x}");
    }
    // Every seed-table bucket at its first and last divisor.
    for d9 in 256u64..512 {
        for d in [d9 << 55, (d9 << 55) | ((1 << 55) - 1)] {
            assert_eq!(reciprocal(d), expected_reciprocal(d), "{d:#x}");
        }
    }
}

#[test]
fn two_limb_reciprocal_at_the_edges() {
    let top = 1u128 << 127;
    for d in [
        top,
        top + 1,
        u128::MAX,
        u128::MAX - 1,
        top | u128::from(u64::MAX),
        top | (1u128 << 64),
        u128::MAX << 64,
    ] {
        assert_eq!(reciprocal_2(d), expected_reciprocal_2(d), "{d:#x}");
        for high in [0, 1, d - 1, d >> 1] {
            for low in [0, 1, u64::MAX] {
                assert_eq!(
                    div_3_by_2(high, low, d, reciprocal_2(d)),
                    expected_3_by_2(high, low, d)
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(50_000))]

    #[test]
    fn two_limb_reciprocal_is_exact(d in (1u128 << 127)..=u128::MAX) {
        prop_assert_eq!(reciprocal_2(d), expected_reciprocal_2(d));
    }

    #[test]
    fn three_by_two_division_is_exact(d in (1u128 << 127)..=u128::MAX, high in any::<u128>(), low in any::<u64>(), near: bool) {
        let high = if near { d - 1 - (high % 4).min(d - 1) } else { high % d };
        prop_assert_eq!(div_3_by_2(high, low, d, reciprocal_2(d)), expected_3_by_2(high, low, d));
    }

    #[test]
    fn reciprocal_is_exact(d in (1u64 << 63)..=u64::MAX) {
        prop_assert_eq!(reciprocal(d), expected_reciprocal(d));
    }

    #[test]
    fn division_is_exact(d in (1u64 << 63)..=u64::MAX, high in any::<u64>(), low in any::<u64>()) {
        let high = high % d;
        let x = u128::from(high) << 64 | u128::from(low);
        let expected = ((x / u128::from(d)) as u64, (x % u128::from(d)) as u64);
        prop_assert_eq!(div_2_by_1(high, low, d, reciprocal(d)), expected);
    }

    #[test]
    fn division_is_exact_near_the_divisor(d in (1u64 << 63)..=u64::MAX, low in any::<u64>()) {
        let x = u128::from(d - 1) << 64 | u128::from(low);
        let expected = ((x / u128::from(d)) as u64, (x % u128::from(d)) as u64);
        prop_assert_eq!(div_2_by_1(d - 1, low, d, reciprocal(d)), expected);
    }
}
