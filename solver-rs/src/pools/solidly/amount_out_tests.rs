use super::*;

fn u(x: u128) -> U256 {
    U256::from(x)
}

#[test]
fn fee_is_floored_off_the_input() {
    // 9_999 at 30 bps: fee = floor(299_970/10_000) = 29, so 9_970 goes in (V2 would use 9_969.003).
    assert_eq!(fee_amount_round_down(u(9_999), 30).unwrap(), u(29));
    assert_eq!(fee_amount_round_down(u(33), 30).unwrap(), U256::ZERO);
}

#[test]
fn volatile_matches_the_formula_by_hand() {
    // in = 1_000_000, fee 30 bps → net 997_000; out = floor(997_000·5e9 / (2e9 + 997_000)).
    let out =
        get_amount_out(Curve::Volatile, u(1_000_000), true, u(2_000_000_000), u(5_000_000_000), 30)
            .unwrap();
    assert_eq!(out, u(997_000 * 5_000_000_000 / (2_000_000_000 + 997_000)));
    let back = get_amount_out(
        Curve::Volatile,
        u(1_000_000),
        false,
        u(2_000_000_000),
        u(5_000_000_000),
        30,
    )
    .unwrap();
    assert_eq!(back, u(997_000 * 2_000_000_000 / (5_000_000_000 + 997_000)));
}

#[test]
fn overflow_is_an_error_not_a_panic() {
    let huge = U256::MAX;
    assert_eq!(
        get_amount_out(Curve::Volatile, huge, true, u(1), u(1), 30),
        Err(PoolError::Overflow)
    );
    let scales = TokenScales { scale0: WAD, scale1: WAD };
    assert_eq!(
        get_amount_out(Curve::Stable(scales), u(1), true, huge, huge, 5),
        Err(PoolError::Overflow)
    );
}
