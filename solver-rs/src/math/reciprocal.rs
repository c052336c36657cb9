//! Division of two limbs by one, and of three limbs by two, through the divisor's reciprocal with
//! multiplications only (Möller and Granlund, "Improved division by invariant integers", IEEE
//! Trans. Computers 2011, algorithms 3 to 6). The hardware's 128-by-64 division costs about
//! 90 cycles on the servers we run on; this costs a handful, and long division pays it once per
//! quotient limb.

/// ⌊(2^128 − 1) / d⌋ − 2^64 for a normalized `d` (top bit set): the divisor's reciprocal.
pub fn reciprocal(d: u64) -> u64 {
    debug_assert!(d >> 63 == 1);
    let d0 = d & 1;
    let d40 = (d >> 24) + 1;
    let d63 = (d >> 1) + d0;
    // 11 bits, then 21, 34 and 64 bits of precision by Newton steps, each exact in its width.
    let v0 = u64::from(RECIPROCAL_SEED[((d >> 55) - 256) as usize]);
    // Wrapping as in the paper: the intermediate products are taken modulo 2^64 on purpose.
    let v1 = (v0 << 11).wrapping_sub(v0.wrapping_mul(v0).wrapping_mul(d40) >> 40).wrapping_sub(1);
    let v2 = (v1 << 13).wrapping_add(v1.wrapping_mul((1u64 << 60).wrapping_sub(v1.wrapping_mul(d40))) >> 47);
    let e = ((v2 >> 1) & d0.wrapping_neg()).wrapping_sub(v2.wrapping_mul(d63));
    let v3 = (mul_high(v2, e) >> 1).wrapping_add(v2 << 31);
    // v3 − ⌊(v3 + 2^64 + 1)·d / 2^64⌋, with (v3 + 1)·d < 2^128.
    let product = u128::from(v3) * u128::from(d) + u128::from(d);
    v3.wrapping_sub((product >> 64) as u64).wrapping_sub(d)
}

/// (⌊(high·2^64 + low) / d⌋, remainder) for a normalized `d`, its `reciprocal` and high < d.
#[inline(always)]
pub fn div_2_by_1(high: u64, low: u64, d: u64, reciprocal: u64) -> (u64, u64) {
    debug_assert!(d >> 63 == 1 && high < d);
    let estimate = u128::from(high) * u128::from(reciprocal) + (u128::from(high) << 64 | u128::from(low));
    let mut quotient = ((estimate >> 64) as u64).wrapping_add(1);
    let mut remainder = low.wrapping_sub(quotient.wrapping_mul(d));
    // The estimate is one too large or exact, then (rarely) one too small.
    if remainder > estimate as u64 {
        quotient = quotient.wrapping_sub(1);
        remainder = remainder.wrapping_add(d);
    }
    if remainder >= d {
        quotient += 1;
        remainder -= d;
    }
    (quotient, remainder)
}

/// ⌊(2^192 − 1) / d⌋ − 2^64 for a normalized two-limb `d` (top bit set): the reciprocal
/// [`div_3_by_2`] needs.
pub fn reciprocal_2(d: u128) -> u64 {
    debug_assert!(d >> 127 == 1);
    let (d_high, d_low) = ((d >> 64) as u64, d as u64);
    // Start from the top limb's reciprocal and correct it down for the low limb.
    let mut v = reciprocal(d_high);
    let (mut p, overflow) = d_high.wrapping_mul(v).overflowing_add(d_low);
    if overflow {
        v = v.wrapping_sub(1);
        if p >= d_high {
            v = v.wrapping_sub(1);
            p = p.wrapping_sub(d_high);
        }
        p = p.wrapping_sub(d_high);
    }
    let t = u128::from(v) * u128::from(d_low);
    let (p, overflow) = p.overflowing_add((t >> 64) as u64);
    if overflow {
        v = v.wrapping_sub(1);
        if (u128::from(p) << 64 | (t as u64 as u128)) >= d {
            v = v.wrapping_sub(1);
        }
    }
    v
}

/// (⌊(high·2^64 + low) / d⌋, remainder) for a normalized two-limb `d`, its [`reciprocal_2`] and
/// high < d: the quotient fits one limb and is exact, no correction by the caller.
#[inline(always)]
pub fn div_3_by_2(high: u128, low: u64, d: u128, reciprocal_2: u64) -> (u64, u128) {
    debug_assert!(d >> 127 == 1 && high < d);
    let estimate = u128::from((high >> 64) as u64) * u128::from(reciprocal_2) + high;
    let (estimate_high, estimate_low) = ((estimate >> 64) as u64, estimate as u64);
    let r1 = (high as u64).wrapping_sub(estimate_high.wrapping_mul((d >> 64) as u64));
    let t = u128::from(d as u64) * u128::from(estimate_high);
    let mut remainder = (u128::from(r1) << 64 | u128::from(low)).wrapping_sub(t).wrapping_sub(d);
    let mut quotient = estimate_high.wrapping_add(1);
    if (remainder >> 64) as u64 >= estimate_low {
        quotient = quotient.wrapping_sub(1);
        remainder = remainder.wrapping_add(d);
    }
    if remainder >= d {
        quotient = quotient.wrapping_add(1);
        remainder -= d;
    }
    (quotient, remainder)
}

/// ⌊(2^19 − 3·2^8) / d9⌋ for each top-9-bits value d9 of a normalized divisor (256..512).
const RECIPROCAL_SEED: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (((1 << 19) - 3 * (1 << 8)) / (256 + i)) as u16;
        i += 1;
    }
    table
};

fn mul_high(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

#[cfg(test)]
mod tests {
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
        for d in [top, top + 1, top + 2, u64::MAX, u64::MAX - 1, top | (top >> 1), top | 0xffff_ffff, 0xc000_0000_0000_0001] {
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
        for d in [top, top + 1, u128::MAX, u128::MAX - 1, top | u128::from(u64::MAX), top | (1u128 << 64), u128::MAX << 64] {
            assert_eq!(reciprocal_2(d), expected_reciprocal_2(d), "{d:#x}");
            for high in [0, 1, d - 1, d >> 1] {
                for low in [0, 1, u64::MAX] {
                    assert_eq!(div_3_by_2(high, low, d, reciprocal_2(d)), expected_3_by_2(high, low, d));
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
}
