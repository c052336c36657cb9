use super::*;
use crate::math::U512;
use proptest::prelude::*;

fn ruint_wide(low: U256, high: U256, d: U256) -> Option<(U256, U256)> {
    let mut limbs = [0u64; 8];
    limbs[..4].copy_from_slice(low.as_limbs());
    limbs[4..].copy_from_slice(high.as_limbs());
    let (q, r) = U512::from_limbs(limbs).div_rem(U512::from(d));
    let q = q.as_limbs();
    (q[4..].iter().all(|&l| l == 0)).then(|| {
        (
            U256::from_limbs([q[0], q[1], q[2], q[3]]),
            U256::from_limbs([r.as_limbs()[0], r.as_limbs()[1], r.as_limbs()[2], r.as_limbs()[3]]),
        )
    })
}

/// Values at every limb width and their edges: 0, 1, powers of two, all-ones, MAX.
fn edge_values() -> Vec<U256> {
    let mut values = vec![
        U256::ZERO,
        U256::from(1u8),
        U256::from(2u8),
        U256::from(3u8),
        U256::MAX,
        U256::MAX - U256::from(1u8),
    ];
    for bits in [63usize, 64, 65, 96, 127, 128, 129, 160, 191, 192, 193, 224, 255] {
        let power = U256::from(1u8) << bits;
        values.extend([power, power - U256::from(1u8), power + U256::from(1u8)]);
    }
    // Divisors whose normalized top limbs provoke the estimate corrections.
    values.push(U256::from_limbs([0, 0, 1, 0x8000_0000_0000_0000]));
    values.push(U256::from_limbs([u64::MAX, 0, 0, 0x8000_0000_0000_0000]));
    values.push(U256::from_limbs([0, u64::MAX, u64::MAX, 0x7fff_ffff_ffff_ffff]));
    values.push(U256::from_limbs([1, 0, 0x8000_0000_0000_0000, 0]));
    values
}

#[test]
fn edge_operands_agree_with_ruint() {
    let values = edge_values();
    for &a in &values {
        for &b in values.iter().filter(|b| !b.is_zero()) {
            assert_eq!(div_rem(a, b), a.div_rem(b), "{a} / {b}");
            for &high in &values {
                assert_eq!(div_rem_wide(a, high, b), ruint_wide(a, high, b), "({high}, {a}) / {b}");
            }
        }
    }
}

#[test]
fn estimates_one_too_large_are_added_back() {
    // q·v − 1 with v's low limb nonzero: the top limbs alone say q, the quotient is q − 1, so
    // the multiply-subtract goes below zero and must add the divisor back.
    let divisors = [
        U256::from_limbs([3, 5, 0x8000_0000_0000_0000, 0]),
        U256::from_limbs([u64::MAX, 7, 1, 0x8000_0000_0000_0001]),
        U256::from_limbs([1, 0, 0, 0x0000_0001_0000_0000]),
    ];
    for v in divisors {
        for q in [
            U256::from(0xffff_ffffu64),
            U256::from(3u8) << 64,
            U256::from(u64::MAX) << 100,
            U256::MAX >> 3,
        ] {
            let dividend = U512::from(q) * U512::from(v) - U512::from(1u8);
            let limbs = dividend.as_limbs();
            let low = U256::from_limbs([limbs[0], limbs[1], limbs[2], limbs[3]]);
            let high = U256::from_limbs([limbs[4], limbs[5], limbs[6], limbs[7]]);
            assert_eq!(
                div_rem_wide(low, high, v),
                Some((q - U256::from(1u8), v - U256::from(1u8)))
            );
            if high.is_zero() {
                assert_eq!(div_rem(low, v), (q - U256::from(1u8), v - U256::from(1u8)));
            }
        }
    }
}

#[test]
#[should_panic(expected = "divide by zero")]
fn zero_divisor_panics_like_slash() {
    let _ = div_rem(U256::MAX, U256::ZERO);
}

/// A U256 with each limb independently zero, all ones or random: every width combination.
fn any_u256() -> impl Strategy<Value = U256> {
    let limb = prop_oneof![Just(0u64), Just(u64::MAX), Just(1u64), any::<u64>(), any::<u64>()];
    [limb.clone(), limb.clone(), limb.clone(), limb].prop_map(U256::from_limbs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn agrees_with_ruint(a in any_u256(), b in any_u256()) {
        prop_assume!(!b.is_zero());
        prop_assert_eq!(div_rem(a, b), a.div_rem(b));
    }

    #[test]
    fn wide_agrees_with_ruint(low in any_u256(), high in any_u256(), d in any_u256()) {
        prop_assume!(!d.is_zero());
        prop_assert_eq!(div_rem_wide(low, high, d), ruint_wide(low, high, d));
    }

    #[test]
    fn wide_agrees_with_ruint_near_the_divisor(low in any_u256(), d in any_u256(), below in 1u64..4) {
        // high just under d: the widest quotients, where each limb estimate is tightest.
        prop_assume!(d > U256::from(below));
        let high = d - U256::from(below);
        prop_assert_eq!(div_rem_wide(low, high, d), ruint_wide(low, high, d));
    }
}
