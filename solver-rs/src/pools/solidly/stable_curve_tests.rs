use super::*;

fn u(x: u128) -> U256 {
    U256::from(x)
}

const E18: u128 = 1_000_000_000_000_000_000;
const SCALES_18: TokenScales = TokenScales { scale0: WAD, scale1: WAD };

#[test]
fn f_and_d_floor_each_intermediate() {
    // x0 = 2.5, y = 1.5 (1e18 units): a = 3.75, b = 6.25 + 2.25 = 8.5, f = 31.875.
    assert_eq!(f(u(25 * E18 / 10), u(15 * E18 / 10)).unwrap(), u(31_875 * E18 / 1000));
    // d = 3·2.5·2.25 + 2.5³ = 16.875 + 15.625 = 32.5.
    assert_eq!(d(u(25 * E18 / 10), u(15 * E18 / 10)).unwrap(), u(325 * E18 / 10));
    // Below 1e18 the floors bite: x0·y/1e18 = 0 for x0 = y = 1e8.
    assert_eq!(f(u(100_000_000), u(100_000_000)).unwrap(), U256::ZERO);
    assert_eq!(d(u(1), u(1)).unwrap(), U256::ZERO);
    // 3·x0 is formed before the floor: floor(3·1·floor(0.49e18)/1e18) = 1, not 3·0.
    assert_eq!(d(u(1), u(7 * E18 / 10)).unwrap(), u(1));
}

#[test]
fn k_normalises_each_token_by_its_own_scale() {
    let scales = TokenScales { scale0: u(1_000_000), scale1: WAD };
    // 2.5 units of a 6-decimal token0 against 1.5 of an 18-decimal token1.
    assert_eq!(k_stable(u(2_500_000), u(15 * E18 / 10), scales).unwrap(), u(31_875 * E18 / 1000));
}

#[test]
fn zero_input_returns_the_start_through_the_equality_branch() {
    // Decided by hand: x0 = reserveA, xy = _f(reserveA, reserveB), so round 1 has k == xy,
    // dy == 0, and the else branch returns y untouched.
    let (ra, rb) = (u(1_000 * E18), u(3_000 * E18));
    let xy = f(ra, rb).unwrap();
    assert_eq!(get_y(ra, xy, rb, SCALES_18).unwrap(), rb);
}

#[test]
fn y_minus_one_is_not_formed_when_k_equals_xy() {
    // y = 0 and xy = 0: d(1e18, 0) = 1e18 so dy = 0, and k == xy short-circuits before the
    // `y - 1` that would underflow.
    assert_eq!(get_y(u(E18), U256::ZERO, U256::ZERO, SCALES_18).unwrap(), U256::ZERO);
}

#[test]
fn tie_breaks_decided_by_hand() {
    // x0 = y = 1.0: f = 1e18·(1e18 + 1e18)/1e18 = 2e18, d = 3e18 + 1e18 = 4e18.
    // xy = 2e18 + 1: dy = 1e18/4e18 = 0, and f(1.0, 1.0 + 1 wei) = (1e18+1)(2e18+2)/1e18 =
    // 2e18 + 4 > xy, so round one returns y + 1.
    assert_eq!(get_y(u(E18), u(2 * E18 + 1), u(E18), SCALES_18).unwrap(), u(E18 + 1));
    // Start at y = 1.0 + 1 wei with xy = 2e18: k − xy = 4, d = 4e18 + 6, dy = 0; f(y − 1) =
    // 2e18 is not below xy, so it steps down by one, then k == xy returns 1.0 exactly.
    assert_eq!(get_y(u(E18), u(2 * E18), u(E18 + 1), SCALES_18).unwrap(), u(E18));
}

#[test]
fn the_k_quirk_changes_outcomes() {
    // Found by comparing with a port that uses `_f` in the y + 1 check, then checked by hand.
    // Token0 with 6 decimals: `_k` multiplies the already-normalised x0 by 1e12, and
    // _a·_b ≈ 2.7e34·3.75e43 ≈ 1.0e78 overflows 256 bits: the contract reverts where the
    // clean check would have returned y + 1.
    let (x0, xy, y) = (
        u(6_126_200_000_000_000_000),
        u(550_582_538_588_571_181_855_730_400_042),
        u(4_479_300 * E18 / 1000),
    );
    assert_eq!(
        get_y(x0, xy, y, TokenScales { scale0: u(1_000_000), scale1: WAD }),
        Err(PoolError::Overflow)
    );
    assert_eq!(get_y(x0, xy, y, SCALES_18).unwrap(), y + u(1));
    // Token0 with 30 decimals: `_k` shrinks x0 by 1e12, never exceeds xy, and the solve
    // oscillates until the cap, where `_f` would have stopped in the first round.
    let (x0, xy, y) = (u(64_907_000_000_000_000_000), u(8_136_439_326), u(29_755));
    let scales_30 = TokenScales { scale0: U256::from(10).pow(U256::from(30)), scale1: WAD };
    assert_eq!(get_y(x0, xy, y, scales_30), Err(PoolError::NoConvergence));
    assert_eq!(get_y(x0, xy, y, SCALES_18).unwrap(), u(29_756));
}

#[test]
fn zero_derivative_is_a_division_by_zero_revert() {
    // x0 = y = 1 wei: every floor is zero, so d == 0 and the division reverts.
    assert_eq!(get_y(u(1), u(5), u(1), SCALES_18), Err(PoolError::DivisionByZero));
}
