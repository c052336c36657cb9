//! `TickMath`: the Q64.96 square-root price at a tick and the tick at a square-root price, bit for
//! bit as Uniswap V3 computes them (V4, Pancake Infinity and Algebra Integral use the same table).

use crate::math::div::div_rem;
use crate::math::U256;
use crate::pools::PoolError;

/// The lowest tick: log base 1.0001 of 2^-128, rounded toward zero.
pub const MIN_TICK: i32 = -887_272;
/// The highest tick: the negation of [`MIN_TICK`].
pub const MAX_TICK: i32 = 887_272;
/// `get_sqrt_ratio_at_tick(MIN_TICK)`, Q64.96: the lowest price a pool may hold.
pub const MIN_SQRT_RATIO: U256 = U256::from_limbs([4_295_128_739, 0, 0, 0]);
/// `get_sqrt_ratio_at_tick(MAX_TICK)`, Q64.96: an upper bound a pool's price stays strictly below.
pub const MAX_SQRT_RATIO: U256 =
    U256::from_limbs([0x5d95_1d52_6398_8d26, 0xefd1_fc6a_5064_8849, 0x0000_0000_fffd_8963, 0]);

/// Q128.128 factors sqrt(1.0001)^-(2^i) for bit i of |tick| (bit 0 is the starting value).
const RATIO_FACTORS: [u128; 20] = [
    0xfffcb933bd6fad37aa2d162d1a594001,
    0xfff97272373d413259a46990580e213a,
    0xfff2e50f5f656932ef12357cf3c7fdcc,
    0xffe5caca7e10e4e61c3624eaa0941cd0,
    0xffcb9843d60f6159c9db58835c926644,
    0xff973b41fa98c081472e6896dfb254c0,
    0xff2ea16466c96a3843ec78b326b52861,
    0xfe5dee046a99a2a811c461f1969c3053,
    0xfcbe86c7900a88aedcffc83b479aa3a4,
    0xf987a7253ac413176f2b074cf7815e54,
    0xf3392b0822b70005940c7a398e4b70f3,
    0xe7159475a2c29b7443b29c7fa6e889d9,
    0xd097f3bdfd2022b8845ad8f792aa5825,
    0xa9f746462d870fdf8a65dc1f90e061e5,
    0x70d869a156d2a1b890bb3df62baf32f7,
    0x31be135f97d08fd981231505542fcfa6,
    0x9aa508b5b7a84e1c677de54f3e99bc9,
    0x5d6af8dedb81196699c329225ee604,
    0x2216e584f5fa1ea926041bedfe98,
    0x48a170391f7dc42444e8fa2,
];

/// Slots of the per-thread memo of [`get_sqrt_ratio_at_tick`] (direct-mapped by tick; 40 bytes
/// each, 640 KiB a thread). Since the tick lists price their own initialized ticks, the memo holds
/// the bitmap word edges the V3 / V4 loops step to: a 100× trade's swaps walk thousands of them
/// across a 1,000-pool market's pools (at spacing 1 a word is 256 ticks), which evicted one another
/// from 2,048 slots (bench/README.md: single-path quotes 10–20 % cheaper on CPU with 16,384).
const MEMO_SLOTS: usize = 16384;
/// A tick's slot: the top bits of its product with 2^32/φ (Fibonacci hashing), as many as index
/// the slots.
const MEMO_SHIFT: u32 = 32 - MEMO_SLOTS.trailing_zeros();

thread_local! {
    /// Recent ticks and their ratios. Swaps keep stepping to the same ticks (initialized ticks and
    /// bitmap word edges) quote after quote, and a ratio costs about 20 wide multiplications.
    static RATIO_MEMO: std::cell::RefCell<Vec<(i32, U256)>> = std::cell::RefCell::new(vec![(i32::MIN, U256::ZERO); MEMO_SLOTS]);
}

/// sqrt(1.0001^tick)·2^96 as a Q64.96, rounded up from the Q128.128 intermediate (as the contract
/// does, so that `get_tick_at_sqrt_ratio` of the result is `tick` again). Errors when
/// |tick| > MAX_TICK, where the contract reverts with `T`. Answers from a per-thread memo of the
/// ticks seen recently (the function is pure, so the memo changes nothing but the time).
pub fn get_sqrt_ratio_at_tick(tick: i32) -> Result<U256, PoolError> {
    if tick.unsigned_abs() > MAX_TICK.unsigned_abs() {
        return compute_sqrt_ratio_at_tick(tick);
    }
    let slot = (tick as u32).wrapping_mul(0x9e37_79b9) as usize >> MEMO_SHIFT & (MEMO_SLOTS - 1);
    if let Some(ratio) =
        RATIO_MEMO.with(|memo| memo.borrow().get(slot).filter(|(t, _)| *t == tick).map(|(_, r)| *r))
    {
        return Ok(ratio);
    }
    let ratio = compute_sqrt_ratio_at_tick(tick)?;
    RATIO_MEMO.with(|memo| memo.borrow_mut()[slot] = (tick, ratio));
    Ok(ratio)
}

/// [`get_sqrt_ratio_at_tick`] without the memo (the tick list's price table is built with it).
pub(super) fn compute_sqrt_ratio_at_tick(tick: i32) -> Result<U256, PoolError> {
    let abs_tick = tick.unsigned_abs();
    if abs_tick > MAX_TICK.unsigned_abs() {
        return Err(PoolError::InvalidState(format!("tick {tick} outside [MIN_TICK, MAX_TICK]")));
    }
    // Q128.128 in a u128: every factor is below 1, so after the first one the running product is
    // too; only "no factor yet" (exactly 1.0 = 2^128) needs the extra bit, and is kept as `None`.
    let mut ratio: Option<u128> = (abs_tick & 1 != 0).then_some(RATIO_FACTORS[0]);
    for (bit, factor) in RATIO_FACTORS.iter().enumerate().skip(1) {
        if abs_tick & (1 << bit) != 0 {
            // (ratio · factor) >> 128, the contract's 256-bit product's high half; 1.0 · factor is
            // the factor itself.
            ratio = Some(ratio.map_or(*factor, |ratio| mul_high_u128(ratio, *factor)));
        }
    }
    let ratio = match ratio {
        None => U256::from_limbs([0, 0, 1, 0]),
        // ratio < 2^128 is never zero: the smallest factor product stays far above 1.
        Some(ratio) if tick > 0 => div_rem(U256::MAX, U256::from(ratio)).0,
        Some(ratio) => U256::from(ratio),
    };
    let rounded_up = ratio.as_limbs()[0] & u64::from(u32::MAX) != 0;
    // ratio >> 32 < 2^224: adding one cannot overflow.
    Ok(ratio.wrapping_shr(32).saturating_add(U256::from(u8::from(rounded_up))))
}

/// ⌊a·b / 2^128⌋: the high half of a 128-by-128-bit product.
fn mul_high_u128(a: u128, b: u128) -> u128 {
    mul_wide_u128(a, b).0
}

/// The greatest tick whose square-root price is ≤ `sqrt_price_x96` (a floor). Errors outside
/// [MIN_SQRT_RATIO, MAX_SQRT_RATIO), where the contract reverts with `R`.
///
/// As the contract: a fixed-point log2 of the price to 14 fractional bits, scaled to a
/// log base sqrt(1.0001) with error bounds narrow enough that the floor tick is one of two
/// neighbours, and one exact `get_sqrt_ratio_at_tick` comparison to pick it.
pub fn get_tick_at_sqrt_ratio(sqrt_price_x96: U256) -> Result<i32, PoolError> {
    if sqrt_price_x96 < MIN_SQRT_RATIO || sqrt_price_x96 >= MAX_SQRT_RATIO {
        return Err(PoolError::InvalidState(format!(
            "sqrt price {sqrt_price_x96} outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)"
        )));
    }
    // Q128.128 ratio in [2^64, 2^192): the msb is its integer log2.
    // sqrt_price_x96 < 2^160, so the shift keeps every bit; the ratio is not zero, so msb ≥ 64.
    let ratio: U256 = sqrt_price_x96.wrapping_shl(32);
    let msb = 255usize.saturating_sub(ratio.leading_zeros());
    // r: the ratio's top 128 bits, normalized to [2^127, 2^128) (as the contract's `r`).
    let mut r = if msb >= 128 {
        ratio.wrapping_shr(msb.saturating_sub(127))
    } else {
        ratio.wrapping_shl(127usize.saturating_sub(msb))
    }
    .to::<u128>();
    // log2 in Q64.64, fraction found bit by bit by squaring: r² ≥ 2 sets the bit and halves r.
    // msb < 256, so (msb − 128) · 2^64 is far inside i128.
    let msb = i128::try_from(msb).map_err(|_| PoolError::Overflow)?;
    let mut log_2 = msb.saturating_sub(128).saturating_mul(1i128 << 64);
    for bit in (50..64).rev() {
        let (high, low) = mul_wide_u128(r, r);
        let carried = high >> 127;
        log_2 |= (carried as i128) << bit;
        r = if carried == 1 { high } else { high << 1 | low >> 127 };
    }
    // log base sqrt(1.0001) in Q128.128, an int256 product in the contract; |log_2| < 2^71 keeps
    // this one under 2^150, so the 256-bit two's complement wraps exactly as the contract's does.
    let magnitude = U256::from(log_2.unsigned_abs())
        .checked_mul(U256::from(LOG_SQRT10001_FACTOR))
        .ok_or(PoolError::Overflow)?;
    let log_sqrt10001 = if log_2 < 0 { magnitude.wrapping_neg() } else { magnitude };
    let tick_low = floor_q128(log_sqrt10001.wrapping_sub(TICK_LOW_OFFSET))?;
    let tick_high = floor_q128(log_sqrt10001.wrapping_add(TICK_HIGH_OFFSET))?;
    if tick_low == tick_high || get_sqrt_ratio_at_tick(tick_high)? > sqrt_price_x96 {
        Ok(tick_low)
    } else {
        Ok(tick_high)
    }
}

/// [`get_tick_at_sqrt_ratio`], trying `near` first (the tick a swap step started from): when
/// `near`'s price ≤ `sqrt_price_x96` < the next tick's, `near` is the greatest tick priced at or
/// below it, which is what the log computes; two lookups of the per-thread memo instead of the
/// log's fourteen squarings, for a step that leaves the price inside its tick. Otherwise, the
/// log.
pub fn get_tick_at_sqrt_ratio_near(sqrt_price_x96: U256, near: i32) -> Result<i32, PoolError> {
    // Both prices inside [MIN_SQRT_RATIO, MAX_SQRT_RATIO], so a price between them is in range.
    if (MIN_TICK..MAX_TICK).contains(&near)
        && get_sqrt_ratio_at_tick(near)? <= sqrt_price_x96
        && sqrt_price_x96 < get_sqrt_ratio_at_tick(near.saturating_add(1))?
    {
        return Ok(near);
    }
    get_tick_at_sqrt_ratio(sqrt_price_x96)
}

/// 2^64 / log2(sqrt(1.0001)), the contract's log2-to-tick factor (Q64.64 · this = Q128.128).
const LOG_SQRT10001_FACTOR: u128 = 255_738_958_999_603_826_347_141;
/// The contract's bounds on the log's error, below and above, in Q128.128.
const TICK_LOW_OFFSET: U256 =
    U256::from_limbs([0x5af0_12a1_9d00_3aaa, 0x028f_6481_ab7f_045a, 0, 0]);
const TICK_HIGH_OFFSET: U256 =
    U256::from_limbs([0x455e_2607_99a0_632f, 0xdb2d_f09e_8195_9a81, 0, 0]);

/// ⌊x / 2^128⌋ for x a two's-complement int256 holding a tick in Q128.128 (the contract's `>> 128`
/// on int256, then int24). The high half read as i128 is the two's-complement value (|x| < 2^150
/// here); one that does not fit an i32 is an overflow, not a truncation.
fn floor_q128(x: U256) -> Result<i32, PoolError> {
    let limbs = x.as_limbs();
    let high = (u128::from(limbs[3]) << 64 | u128::from(limbs[2])) as i128;
    i32::try_from(high).map_err(|_| PoolError::Overflow)
}

/// The 256-bit product of two u128 as (high, low) halves: four 64-bit multiplies.
fn mul_wide_u128(a: u128, b: u128) -> (u128, u128) {
    let (a_high, a_low) = (a >> 64, a & u128::from(u64::MAX));
    let (b_high, b_low) = (b >> 64, b & u128::from(u64::MAX));
    // Every factor is below 2^64, so no product wraps; the high half of a 256-bit product is below
    // 2^128, so neither does its sum (the carries are what `overflowing_add` reports).
    let (middle, carry_middle) =
        a_high.wrapping_mul(b_low).overflowing_add(a_low.wrapping_mul(b_high));
    let (low, carry_low) = a_low.wrapping_mul(b_low).overflowing_add(middle << 64);
    // A carry out of the middle sum is worth 2^192, 2^64 in the high half.
    let high = a_high
        .wrapping_mul(b_high)
        .wrapping_add(middle >> 64)
        .wrapping_add(u128::from(carry_middle) << 64)
        .wrapping_add(u128::from(carry_low));
    (high, low)
}

#[cfg(test)]
#[path = "tick_math_tests.rs"]
mod tests;
