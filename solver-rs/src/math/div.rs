//! Division of a 256-bit or 512-bit dividend by a 256-bit divisor, bit for bit ruint's `div_rem`
//! but cheaper for the operands the pools produce: fee denominators of one limb, square-root
//! prices and liquidities of two or three, dividends that are mostly empty high limbs. It is
//! schoolbook long division (Knuth's algorithm D) on 64-bit limbs sized to the operands, each
//! quotient limb estimated through the divisor's reciprocal (`reciprocal.rs`) rather than the
//! hardware's slow 128-by-64 division, which ruint's path issues up to once per limb.

use super::reciprocal::{div_2_by_1, div_3_by_2, reciprocal, reciprocal_2};
use super::U256;

/// (a / b, a % b), the quotient rounded down. Panics when `b` is zero, as `/` does.
pub fn div_rem(a: U256, b: U256) -> (U256, U256) {
    if a < b {
        return (U256::ZERO, a);
    }
    let (quotient, remainder) = long_div(a.as_limbs(), b.as_limbs());
    (U256::from_limbs(quotient), U256::from_limbs(remainder))
}

/// (⌊(high·2^256 + low) / d⌋, remainder) when the quotient fits 256 bits, `None` when it does not
/// (exactly when `high ≥ d`). Panics when `d` is zero.
pub fn div_rem_wide(low: U256, high: U256, d: U256) -> Option<(U256, U256)> {
    if high.is_zero() {
        return Some(div_rem(low, d));
    }
    if high >= d {
        return None;
    }
    let mut dividend = [0u64; 8];
    dividend[..4].copy_from_slice(low.as_limbs());
    dividend[4..].copy_from_slice(high.as_limbs());
    let (quotient, remainder) = long_div(&dividend, d.as_limbs());
    // high < d bounds the quotient below 2^256: its upper limbs are zero.
    Some((
        U256::from_limbs([quotient[0], quotient[1], quotient[2], quotient[3]]),
        U256::from_limbs(remainder),
    ))
}

/// Quotient and remainder limbs of `dividend / divisor`, least significant limb first. The divisor
/// must not be zero; the quotient has the dividend's width.
fn long_div<const N: usize>(dividend: &[u64; N], divisor: &[u64; 4]) -> ([u64; N], [u64; 4]) {
    let n = significant_limbs(divisor);
    assert!(n > 0, "attempt to divide by zero");
    let m = significant_limbs(dividend);
    let mut quotient = [0u64; N];
    let mut remainder = [0u64; 4];
    if m < n {
        // Fewer limbs than the divisor: the dividend is the remainder.
        remainder[..m].copy_from_slice(&dividend[..m]);
        return (quotient, remainder);
    }
    match n {
        1 => return div_by_one_limb(dividend, m, divisor[0]),
        2 => return div_by_two_limbs(dividend, m, to_u128(divisor[0], divisor[1])),
        _ => {}
    }
    // Normalize so the divisor's top limb has its top bit set: the reciprocal needs it, and then
    // each quotient-limb estimate from the top two limbs is at most 2 too large (Knuth, TAOCP
    // vol. 2, 4.3.1, Theorem B).
    let shift = divisor[n - 1].leading_zeros();
    let v = shift_left::<4, 4>(divisor, n, shift);
    let mut u = shift_left::<N, 9>(dividend, m, shift);
    let v_top = v[n - 1];
    let v_top_reciprocal = reciprocal(v_top);
    let v_next = v[n - 2];
    for j in (0..=m - n).rev() {
        let top = u[j + n];
        // top ≤ v_top always: the running remainder stays below the divisor.
        let (mut q_hat, mut r_hat) = if top >= v_top {
            (u64::MAX, u128::from(u[j + n - 1]) + u128::from(v_top))
        } else {
            let (q, r) = div_2_by_1(top, u[j + n - 1], v_top, v_top_reciprocal);
            (q, u128::from(r))
        };
        // The second divisor limb corrects the estimate to at most 1 too large.
        while r_hat >> 64 == 0
            && u128::from(q_hat) * u128::from(v_next) > (r_hat << 64 | u128::from(u[j + n - 2]))
        {
            q_hat -= 1;
            r_hat += u128::from(v_top);
        }
        if sub_mul(&mut u[j..=j + n], &v[..n], q_hat) {
            // Rare (probability about 2/2^64): the estimate was still one too large; add back.
            q_hat -= 1;
            add_back(&mut u[j..=j + n], &v[..n]);
        }
        quotient[j] = q_hat;
    }
    // The remainder is what is left of u, shifted back.
    for i in 0..n {
        remainder[i] = (u[i] >> shift) | (u[i + 1] << 1 << (63 - shift));
    }
    (quotient, remainder)
}

/// Short division of the `m` low limbs of `dividend` by one limb `d`, normalizing on the fly.
fn div_by_one_limb<const N: usize>(dividend: &[u64; N], m: usize, d: u64) -> ([u64; N], [u64; 4]) {
    let shift = d.leading_zeros();
    let (d, d_reciprocal) = (d << shift, reciprocal(d << shift));
    let mut quotient = [0u64; N];
    // Each step's remainder stays below the divisor, as the next 2-by-1 step needs.
    let mut rest = dividend[m - 1] >> 1 >> (63 - shift);
    for i in (0..m).rev() {
        (quotient[i], rest) =
            div_2_by_1(rest, normalized_limb(dividend, i, shift), d, d_reciprocal);
    }
    (quotient, [rest >> shift, 0, 0, 0])
}

/// Long division of the `m` (≥ 2) low limbs of `dividend` by a two-limb `d`: one exact 3-by-2
/// step per quotient limb, the running remainder kept in a u128.
fn div_by_two_limbs<const N: usize>(
    dividend: &[u64; N],
    m: usize,
    d: u128,
) -> ([u64; N], [u64; 4]) {
    let shift = ((d >> 64) as u64).leading_zeros();
    let (d, d_reciprocal) = (d << shift, reciprocal_2(d << shift));
    let mut quotient = [0u64; N];
    // The top two normalized limbs hold under 2^127 ≤ d, so the first step's precondition holds.
    let mut rest =
        to_u128(normalized_limb(dividend, m - 1, shift), dividend[m - 1] >> 1 >> (63 - shift));
    for i in (0..m - 1).rev() {
        (quotient[i], rest) =
            div_3_by_2(rest, normalized_limb(dividend, i, shift), d, d_reciprocal);
    }
    let rest = rest >> shift;
    (quotient, [rest as u64, (rest >> 64) as u64, 0, 0])
}

/// Limb `i` of `x << shift` (shift < 64).
#[inline(always)]
fn normalized_limb<const N: usize>(x: &[u64; N], i: usize, shift: u32) -> u64 {
    // `>> 1 >> (63 - shift)` is `>> (64 - shift)` without the undefined 64-bit shift at shift 0.
    let carried_in = if i == 0 { 0 } else { x[i - 1] >> 1 >> (63 - shift) };
    (x[i] << shift) | carried_in
}

fn to_u128(low: u64, high: u64) -> u128 {
    u128::from(high) << 64 | u128::from(low)
}

/// The `len` low limbs of `x` shifted left by `shift` (< 64) bits into `OUT` limbs (≥ len + 1
/// unless the shifted-out bits are known zero, as for the divisor).
fn shift_left<const IN: usize, const OUT: usize>(
    x: &[u64; IN],
    len: usize,
    shift: u32,
) -> [u64; OUT] {
    let mut out = [0u64; OUT];
    // `>> 1 >> (63 - shift)` is `>> (64 - shift)` without the undefined 64-bit shift at shift 0.
    if len < OUT {
        out[len] = x[len - 1] >> 1 >> (63 - shift);
    }
    for i in (1..len).rev() {
        out[i] = (x[i] << shift) | (x[i - 1] >> 1 >> (63 - shift));
    }
    out[0] = x[0] << shift;
    out
}

/// u -= q·v where u has one limb more than v; true when that went below zero (borrow out).
fn sub_mul(u: &mut [u64], v: &[u64], q: u64) -> bool {
    let (mut carry, mut borrow) = (0u64, false);
    for (u_i, &v_i) in u.iter_mut().zip(v) {
        let product = u128::from(q) * u128::from(v_i) + u128::from(carry);
        carry = (product >> 64) as u64;
        let (difference, borrow_product) = u_i.overflowing_sub(product as u64);
        let (difference, borrow_in) = difference.overflowing_sub(u64::from(borrow));
        *u_i = difference;
        borrow = borrow_product | borrow_in;
    }
    let last = u.len() - 1;
    let (difference, borrow_carry) = u[last].overflowing_sub(carry);
    let (difference, borrow_in) = difference.overflowing_sub(u64::from(borrow));
    u[last] = difference;
    borrow_carry | borrow_in
}

/// u += v where u has one limb more than v, dropping the final carry (it cancels the borrow).
fn add_back(u: &mut [u64], v: &[u64]) {
    let mut carry = false;
    for (u_i, &v_i) in u.iter_mut().zip(v) {
        let (sum, carry_sum) = u_i.overflowing_add(v_i);
        let (sum, carry_in) = sum.overflowing_add(u64::from(carry));
        *u_i = sum;
        carry = carry_sum | carry_in;
    }
    let last = u.len() - 1;
    u[last] = u[last].wrapping_add(u64::from(carry));
}

/// Limbs up to and including the most significant nonzero one.
fn significant_limbs<const N: usize>(x: &[u64; N]) -> usize {
    x.iter().rposition(|&limb| limb != 0).map_or(0, |top| top + 1)
}

#[cfg(test)]
#[path = "div_tests.rs"]
mod tests;
