//! `TickMath`: the Q64.96 square-root price at a tick and the tick at a square-root price, bit for
//! bit as Uniswap V3 computes them (V4, Pancake Infinity and Algebra Integral use the same table).

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

/// sqrt(1.0001^tick)·2^96 as a Q64.96, rounded up from the Q128.128 intermediate (as the contract
/// does, so that `get_tick_at_sqrt_ratio` of the result is `tick` again). Errors when
/// |tick| > MAX_TICK, where the contract reverts with `T`.
pub fn get_sqrt_ratio_at_tick(tick: i32) -> Result<U256, PoolError> {
    let abs_tick = tick.unsigned_abs();
    if abs_tick > MAX_TICK.unsigned_abs() {
        return Err(PoolError::InvalidState(format!("tick {tick} outside [MIN_TICK, MAX_TICK]")));
    }
    let mut ratio = if abs_tick & 1 != 0 { U256::from(RATIO_FACTORS[0]) } else { U256::from(1) << 128 };
    for (bit, factor) in RATIO_FACTORS.iter().enumerate().skip(1) {
        if abs_tick & (1 << bit) != 0 {
            // Both operands are below 2^129 and 2^128, so the product never exceeds 256 bits.
            ratio = (ratio * U256::from(*factor)) >> 128;
        }
    }
    if tick > 0 {
        // ratio is never zero: the smallest factor product stays far above 1.
        ratio = U256::MAX / ratio;
    }
    let low_32_bits = ratio & U256::from(u32::MAX);
    let rounded_up = if low_32_bits.is_zero() { 0u8 } else { 1u8 };
    Ok((ratio >> 32) + U256::from(rounded_up))
}

/// The greatest tick whose square-root price is ≤ `sqrt_price_x96` (a floor). Errors outside
/// [MIN_SQRT_RATIO, MAX_SQRT_RATIO), where the contract reverts with `R`.
///
/// The contract gets there through a fixed-point log2; any method that returns the same greatest
/// tick is exact, because `get_sqrt_ratio_at_tick` is strictly increasing. A float log gives a
/// guess within a tick or two and exact comparisons settle it.
pub fn get_tick_at_sqrt_ratio(sqrt_price_x96: U256) -> Result<i32, PoolError> {
    if sqrt_price_x96 < MIN_SQRT_RATIO || sqrt_price_x96 >= MAX_SQRT_RATIO {
        return Err(PoolError::InvalidState(format!("sqrt price {sqrt_price_x96} outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)")));
    }
    let price_ln = (f64::from(sqrt_price_x96) / 2f64.powi(96)).ln() * 2.0;
    let guess = (price_ln / 1.0001f64.ln()).floor();
    let mut tick = (guess as i64).clamp(i64::from(MIN_TICK), i64::from(MAX_TICK) - 1) as i32;
    // Walk down while the guess is too high, then up while the next tick still fits.
    // A bounded loop: the guess is off by at most a few ticks; fall back to bisection otherwise.
    for _ in 0..8 {
        if get_sqrt_ratio_at_tick(tick)? > sqrt_price_x96 {
            tick -= 1;
        } else if tick < MAX_TICK && get_sqrt_ratio_at_tick(tick + 1)? <= sqrt_price_x96 {
            tick += 1;
        } else {
            return Ok(tick);
        }
    }
    bisect_tick(sqrt_price_x96)
}

/// Greatest tick with ratio ≤ price by bisection over the whole range; the float guess's safety net.
fn bisect_tick(sqrt_price_x96: U256) -> Result<i32, PoolError> {
    let (mut low, mut high) = (MIN_TICK, MAX_TICK);
    // Invariant: ratio(low) ≤ price < ratio(high).
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if get_sqrt_ratio_at_tick(mid)? <= sqrt_price_x96 {
            low = mid;
        } else {
            high = mid;
        }
    }
    Ok(low)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn dec(text: &str) -> U256 {
        U256::from_str_radix(text, 10).unwrap()
    }

    #[test]
    fn boundary_ratios_match_the_contract_constants() {
        assert_eq!(get_sqrt_ratio_at_tick(MIN_TICK).unwrap(), MIN_SQRT_RATIO);
        assert_eq!(get_sqrt_ratio_at_tick(MAX_TICK).unwrap(), MAX_SQRT_RATIO);
        assert_eq!(MAX_SQRT_RATIO, dec("1461446703485210103287273052203988822378723970342"));
        assert_eq!(get_sqrt_ratio_at_tick(MIN_TICK + 1).unwrap(), dec("4295343490"));
        assert_eq!(get_sqrt_ratio_at_tick(MAX_TICK - 1).unwrap(), dec("1461373636630004318706518188784493106690254656249"));
        assert_eq!(get_sqrt_ratio_at_tick(0).unwrap(), U256::from(1) << 96);
        assert!(get_sqrt_ratio_at_tick(MIN_TICK - 1).is_err());
        assert!(get_sqrt_ratio_at_tick(MAX_TICK + 1).is_err());
    }

    #[test]
    fn ratios_match_the_v3_snapshot() {
        // From v3-core's TickMath.spec.ts snapshot (`getSqrtRatioAtTick` over a spread of ticks).
        let vectors: [(i32, &str); 8] = [
            (50, "79426470787362580746886972461"),
            (100, "79625275426524748796330556128"),
            (250, "80224679980005306637834519095"),
            (500, "81233731461783161732293370115"),
            (1000, "83290069058676223003182343270"),
            (2500, "89776708723587163891445672585"),
            (3000, "92049301871182272007977902845"),
            (4000, "96768528593268422080558758223"),
        ];
        for (tick, expected) in vectors {
            assert_eq!(get_sqrt_ratio_at_tick(tick).unwrap(), dec(expected), "tick {tick}");
        }
        // Further snapshot values, each checked to lie within 1 of sqrt(1.0001^t)·2^96 computed at
        // 100 digits (the contract rounds up).
        let more: [(i32, &str); 3] = [
            (5000, "101729702841318637793976746270"),
            (50000, "965075977353221155028623082916"),
            (150000, "143194173941309278083010301478497"),
        ];
        for (tick, expected) in more {
            assert_eq!(get_sqrt_ratio_at_tick(tick).unwrap(), dec(expected), "tick {tick}");
        }
    }

    #[test]
    fn ticks_at_the_boundary_ratios() {
        assert_eq!(get_tick_at_sqrt_ratio(MIN_SQRT_RATIO).unwrap(), MIN_TICK);
        assert_eq!(get_tick_at_sqrt_ratio(dec("4295343490")).unwrap(), MIN_TICK + 1);
        assert_eq!(get_tick_at_sqrt_ratio(dec("1461373636630004318706518188784493106690254656249")).unwrap(), MAX_TICK - 1);
        assert_eq!(get_tick_at_sqrt_ratio(MAX_SQRT_RATIO - U256::from(1)).unwrap(), MAX_TICK - 1);
        assert!(get_tick_at_sqrt_ratio(MIN_SQRT_RATIO - U256::from(1)).is_err());
        assert!(get_tick_at_sqrt_ratio(MAX_SQRT_RATIO).is_err());
        assert_eq!(get_tick_at_sqrt_ratio(U256::from(1) << 96).unwrap(), 0);
    }

    #[test]
    fn bisection_agrees_with_the_guess_path() {
        for tick in [MIN_TICK, -500_000, -1, 0, 1, 77_777, MAX_TICK - 1] {
            let price = get_sqrt_ratio_at_tick(tick).unwrap();
            assert_eq!(bisect_tick(price).unwrap(), tick);
            assert_eq!(bisect_tick(price + U256::from(1)).unwrap(), tick);
        }
    }

    proptest! {
        /// sqrt(1.0001^-t) = 1/sqrt(1.0001^t): the negative side agrees with the positive one to
        /// within the rounding of the two tables (relative 1e-30 of a Q64.96 value).
        #[test]
        fn negative_ticks_mirror_positive_ones(tick in 1..MAX_TICK) {
            let up = get_sqrt_ratio_at_tick(tick).unwrap();
            let down = get_sqrt_ratio_at_tick(-tick).unwrap();
            let product = up * down;
            let one = U256::from(1) << 192;
            let diff = if product > one { product - one } else { one - product };
            prop_assert!(diff <= (one >> 90) + up + down, "tick {tick}");
        }

        #[test]
        fn round_trip_is_the_floor(tick in MIN_TICK..MAX_TICK) {
            let at = get_sqrt_ratio_at_tick(tick).unwrap();
            prop_assert_eq!(get_tick_at_sqrt_ratio(at).unwrap(), tick);
            let next = get_sqrt_ratio_at_tick(tick + 1).unwrap();
            prop_assert!(at < next);
            prop_assert_eq!(get_tick_at_sqrt_ratio(next - U256::from(1)).unwrap(), tick);
        }
    }
}
