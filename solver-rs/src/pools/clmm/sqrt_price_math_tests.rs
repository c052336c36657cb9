use super::*;

fn dec(text: &str) -> U256 {
    U256::from_str_radix(text, 10).unwrap()
}
fn e18(n: u128) -> U256 {
    U256::from(n) * U256::from(10u128.pow(18))
}
const ONE_E18: u128 = 1_000_000_000_000_000_000;

/// encodePriceSqrt(1, 1) and encodePriceSqrt(121, 100) of the v3-core tests.
fn price_1_1() -> U256 {
    Q96
}
fn price_121_100() -> U256 {
    dec("87150978765690771352898345369")
}

#[test]
fn next_price_from_input_matches_v3_vectors() {
    // SqrtPriceMath.spec.ts: "input amount of 0.1 token1" and "input amount of 0.1 token0".
    let one_tenth = U256::from(ONE_E18 / 10);
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), ONE_E18, one_tenth, false).unwrap(),
        dec("87150978765690771352898345369")
    );
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), ONE_E18, one_tenth, true).unwrap(),
        dec("72025602285694852357767227579")
    );
    // "amountIn > type(uint96).max and zeroForOne": 2^100 of token0 at liquidity 10e18.
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), 10 * ONE_E18, U256::from(1) << 100, true)
            .unwrap(),
        dec("624999999995069620")
    );
    // "can return 1 with enough amountIn and zeroForOne".
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), 1, U256::MAX / U256::from(2), true).unwrap(),
        U256::from(1)
    );
}

#[test]
fn next_price_from_input_edges() {
    // Zero input returns the price; zero price or liquidity are errors, not panics.
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), ONE_E18, U256::ZERO, true).unwrap(),
        price_1_1()
    );
    assert_eq!(
        get_next_sqrt_price_from_input(price_1_1(), ONE_E18, U256::ZERO, false).unwrap(),
        price_1_1()
    );
    assert!(get_next_sqrt_price_from_input(U256::ZERO, 1, U256::from(1), true).is_err());
    assert!(get_next_sqrt_price_from_input(U256::from(1), 0, U256::from(1), true).is_err());
    // "fails if input amount overflows the price": token1 in beyond 160 bits.
    assert!(get_next_sqrt_price_from_input(MAX_U160, 1024, U256::from(1024), false).is_err());
    // An input overflowing the product takes the fallback, whose checked add reverts in the
    // contract: an error here, never a panic or a wrapped value.
    assert_eq!(
        get_next_sqrt_price_from_input(MAX_U160, u128::MAX, U256::MAX, true),
        Err(PoolError::Overflow)
    );
}

#[test]
fn amount_deltas_match_v3_vectors() {
    // SqrtPriceMath.spec.ts: between 1/1 and 121/100 at liquidity 1e18.
    let a0_up = get_amount0_delta(price_1_1(), price_121_100(), ONE_E18, true).unwrap();
    let a0_down = get_amount0_delta(price_1_1(), price_121_100(), ONE_E18, false).unwrap();
    assert_eq!(a0_up, dec("90909090909090910"));
    assert_eq!(a0_down, a0_up - U256::from(1));
    let a1_up = get_amount1_delta(price_1_1(), price_121_100(), ONE_E18, true).unwrap();
    let a1_down = get_amount1_delta(price_1_1(), price_121_100(), ONE_E18, false).unwrap();
    assert_eq!(a1_up, dec("100000000000000000"));
    assert_eq!(a1_down, a1_up - U256::from(1));
    // Zero liquidity or equal prices give zero; a zero price is an error.
    assert_eq!(get_amount0_delta(price_1_1(), price_121_100(), 0, true).unwrap(), U256::ZERO);
    assert_eq!(get_amount1_delta(price_1_1(), price_1_1(), ONE_E18, true).unwrap(), U256::ZERO);
    assert!(get_amount0_delta(U256::ZERO, price_1_1(), 1, true).is_err());
    let _ = e18(1);
}

#[test]
fn input_from_delta_never_overshoots_the_target() {
    // Feeding exactly the rounded-up amount to reach a target lands on or before it.
    let (current, target, liquidity) = (price_1_1(), price_121_100(), 3 * ONE_E18 + 7);
    let needed = get_amount1_delta(current, target, liquidity, true).unwrap();
    let reached = get_next_sqrt_price_from_input(current, liquidity, needed, false).unwrap();
    assert!(reached >= target);
    let short =
        get_next_sqrt_price_from_input(current, liquidity, needed - U256::from(1), false).unwrap();
    assert!(short <= target);
}
