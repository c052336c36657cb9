use super::*;
use proptest::prelude::*;

#[test]
fn the_memo_answers_what_the_computation_does() {
    // Twice over a spread that makes slots collide: first fills, then hits or evicts.
    for _ in 0..2 {
        for tick in (MIN_TICK..=MAX_TICK).step_by(997).chain([MIN_TICK, -1, 0, 1, MAX_TICK]) {
            assert_eq!(
                get_sqrt_ratio_at_tick(tick).unwrap(),
                compute_sqrt_ratio_at_tick(tick).unwrap(),
                "tick {tick}"
            );
        }
    }
    assert!(get_sqrt_ratio_at_tick(i32::MIN).is_err());
    assert!(get_sqrt_ratio_at_tick(MAX_TICK + 1).is_err());
}

fn dec(text: &str) -> U256 {
    U256::from_str_radix(text, 10).unwrap()
}

/// Greatest tick with ratio ≤ price by bisection over the whole range; an oracle independent of the log.
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

/// The contract's form, a 256-bit multiply per factor: the u128 path must agree bit for bit.
fn sqrt_ratio_by_u256_products(tick: i32) -> U256 {
    let abs_tick = tick.unsigned_abs();
    let mut ratio =
        if abs_tick & 1 != 0 { U256::from(RATIO_FACTORS[0]) } else { U256::from(1) << 128 };
    for (bit, factor) in RATIO_FACTORS.iter().enumerate().skip(1) {
        if abs_tick & (1 << bit) != 0 {
            ratio = (ratio * U256::from(*factor)) >> 128;
        }
    }
    if tick > 0 {
        ratio = U256::MAX / ratio;
    }
    let rounded_up = if (ratio & U256::from(u32::MAX)).is_zero() { 0u8 } else { 1u8 };
    (ratio >> 32) + U256::from(rounded_up)
}

#[test]
fn every_tick_matches_the_u256_products_and_is_its_own_floor() {
    // Every tick in release builds; a stride in debug ones, where this would take minutes.
    let stride = if cfg!(debug_assertions) { 101 } else { 1 };
    for tick in (MIN_TICK..=MAX_TICK).step_by(stride) {
        let at = get_sqrt_ratio_at_tick(tick).unwrap();
        assert_eq!(at, sqrt_ratio_by_u256_products(tick), "tick {tick}");
        if tick < MAX_TICK {
            assert_eq!(get_tick_at_sqrt_ratio(at).unwrap(), tick);
        }
        if tick > MIN_TICK {
            assert_eq!(get_tick_at_sqrt_ratio(at - U256::from(1)).unwrap(), tick - 1);
        }
    }
}

proptest! {
    #[test]
    fn wide_product_is_the_u256_one(a in any::<u128>(), b in any::<u128>()) {
        let (high, low) = mul_wide_u128(a, b);
        prop_assert_eq!((U256::from(high) << 128) | U256::from(low), U256::from(a) * U256::from(b));
    }
}

#[test]
fn wide_product_at_the_edges() {
    for (a, b) in [
        (u128::MAX, u128::MAX),
        (u128::MAX, 1),
        (1u128 << 127, 2),
        (u128::MAX, u128::from(u64::MAX) << 64),
    ] {
        let (high, low) = mul_wide_u128(a, b);
        assert_eq!((U256::from(high) << 128) | U256::from(low), U256::from(a) * U256::from(b));
    }
}

#[test]
fn log_offsets_are_the_contract_constants() {
    assert_eq!(TICK_LOW_OFFSET, dec("3402992956809132418596140100660247210"));
    assert_eq!(TICK_HIGH_OFFSET, dec("291339464771989622907027621153398088495"));
}

#[test]
fn boundary_ratios_match_the_contract_constants() {
    assert_eq!(get_sqrt_ratio_at_tick(MIN_TICK).unwrap(), MIN_SQRT_RATIO);
    assert_eq!(get_sqrt_ratio_at_tick(MAX_TICK).unwrap(), MAX_SQRT_RATIO);
    assert_eq!(MAX_SQRT_RATIO, dec("1461446703485210103287273052203988822378723970342"));
    assert_eq!(get_sqrt_ratio_at_tick(MIN_TICK + 1).unwrap(), dec("4295343490"));
    assert_eq!(
        get_sqrt_ratio_at_tick(MAX_TICK - 1).unwrap(),
        dec("1461373636630004318706518188784493106690254656249")
    );
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
    assert_eq!(
        get_tick_at_sqrt_ratio(dec("1461373636630004318706518188784493106690254656249")).unwrap(),
        MAX_TICK - 1
    );
    assert_eq!(get_tick_at_sqrt_ratio(MAX_SQRT_RATIO - U256::from(1)).unwrap(), MAX_TICK - 1);
    assert!(get_tick_at_sqrt_ratio(MIN_SQRT_RATIO - U256::from(1)).is_err());
    assert!(get_tick_at_sqrt_ratio(MAX_SQRT_RATIO).is_err());
    assert_eq!(get_tick_at_sqrt_ratio(U256::from(1) << 96).unwrap(), 0);
}

#[test]
fn bisection_agrees_with_the_log_path() {
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
    fn log_path_agrees_with_bisection(sqrt_price in any::<[u64; 3]>()) {
        let span = MAX_SQRT_RATIO - MIN_SQRT_RATIO;
        let price = MIN_SQRT_RATIO + U256::from_limbs([sqrt_price[0], sqrt_price[1], sqrt_price[2], 0]) % span;
        prop_assert_eq!(get_tick_at_sqrt_ratio(price).unwrap(), bisect_tick(price).unwrap());
    }

    #[test]
    fn log_path_agrees_with_bisection_at_every_scale(mantissa in any::<u64>(), scale in 0u32..100) {
        // Uniform prices are mostly huge; this covers every power of two of the range evenly.
        let price = (U256::from(mantissa) << scale) + MIN_SQRT_RATIO;
        prop_assume!(price < MAX_SQRT_RATIO);
        prop_assert_eq!(get_tick_at_sqrt_ratio(price).unwrap(), bisect_tick(price).unwrap());
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

proptest! {
    /// The near-tick shortcut answers what the log does: at a tick's own price and one below the
    /// next, from the right tick, its neighbours, a far one and the ends of the range.
    #[test]
    fn near_tick_answers_what_the_log_does(tick in MIN_TICK..MAX_TICK, offset in -3i32..=3, far in MIN_TICK - 2..=MAX_TICK + 2) {
        let at = get_sqrt_ratio_at_tick(tick).unwrap();
        let below_next = get_sqrt_ratio_at_tick(tick + 1).unwrap() - U256::from(1);
        for price in [at, below_next] {
            for near in [tick, tick.saturating_add(offset), far, MIN_TICK, MAX_TICK, MAX_TICK - 1] {
                prop_assert_eq!(get_tick_at_sqrt_ratio_near(price, near), get_tick_at_sqrt_ratio(price));
            }
        }
    }
}

#[test]
fn near_tick_refuses_what_the_log_refuses() {
    for price in [U256::ZERO, MIN_SQRT_RATIO - U256::from(1), MAX_SQRT_RATIO, U256::MAX] {
        for near in [MIN_TICK, 0, MAX_TICK - 1, MAX_TICK] {
            assert!(get_tick_at_sqrt_ratio_near(price, near).is_err(), "{price} near {near}");
        }
    }
}
