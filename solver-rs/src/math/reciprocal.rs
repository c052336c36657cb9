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
    let v2 = (v1 << 13)
        .wrapping_add(v1.wrapping_mul((1u64 << 60).wrapping_sub(v1.wrapping_mul(d40))) >> 47);
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
    let estimate =
        u128::from(high) * u128::from(reciprocal) + (u128::from(high) << 64 | u128::from(low));
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
#[path = "reciprocal_tests.rs"]
mod tests;
