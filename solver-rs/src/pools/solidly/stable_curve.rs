//! The stable invariant of Aerodrome's `Pool.sol` (Velodrome V2 lineage): `_f`, `_d`, `_k` and the
//! Newton solve `_get_y`. Every operation is checked as Solidity 0.8 checks it: an overflow or an
//! underflow is [`PoolError::Overflow`], a zero divisor is [`PoolError::DivisionByZero`].

use crate::math::div::div_rem;
use crate::math::U256;
use crate::pools::PoolError;

/// 1e18, the fixed-point unit every stable-pool quantity is normalised to.
pub const WAD: U256 = U256::from_limbs([1_000_000_000_000_000_000, 0, 0, 0]);

/// Newton rounds before `_get_y` gives up and the pool reverts with `!y`.
pub const MAX_NEWTON_ROUNDS: u32 = 255;

/// The pool's per-token scales: 10^decimals, as the pool stores them in `decimals0/1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenScales {
    /// 10^decimals of token0.
    pub scale0: U256,
    /// 10^decimals of token1.
    pub scale1: U256,
}

pub(super) fn mul(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_mul(b).ok_or(PoolError::Overflow)
}

pub(super) fn add(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_add(b).ok_or(PoolError::Overflow)
}

/// Solidity 0.8 reverts on underflow with the same panic class as overflow.
pub(super) fn sub(a: U256, b: U256) -> Result<U256, PoolError> {
    a.checked_sub(b).ok_or(PoolError::Overflow)
}

pub(super) fn div(a: U256, b: U256) -> Result<U256, PoolError> {
    if b.is_zero() {
        return Err(PoolError::DivisionByZero);
    }
    Ok(div_rem(a, b).0)
}

/// floor(amount·1e18 / scale): a raw amount normalised to 18 decimals, floored as the pool does.
pub fn normalise_down(amount: U256, scale: U256) -> Result<U256, PoolError> {
    div(mul(amount, WAD)?, scale)
}

/// `_f(x0, y)`: floor(floor(x0·y/1e18) · (floor(x0²/1e18) + floor(y²/1e18)) / 1e18), i.e.
/// x0³y + x0y³ in 1e18 units with the pool's three intermediate floors.
pub fn f(x0: U256, y: U256) -> Result<U256, PoolError> {
    let a = div(mul(x0, y)?, WAD)?;
    let b = add(div(mul(x0, x0)?, WAD)?, div(mul(y, y)?, WAD)?)?;
    div(mul(a, b)?, WAD)
}

/// `_d(x0, y)`: ∂f/∂y scaled by 1e18, floored: floor(3·x0·floor(y²/1e18)/1e18) +
/// floor(floor(x0²/1e18)·x0/1e18). The product `3·x0` is formed first, as in the source.
pub fn d(x0: U256, y: U256) -> Result<U256, PoolError> {
    let y_sq = div(mul(y, y)?, WAD)?;
    let left = div(mul(mul(U256::from(3), x0)?, y_sq)?, WAD)?;
    let right = div(mul(div(mul(x0, x0)?, WAD)?, x0)?, WAD)?;
    add(left, right)
}

/// `_k(x, y)` of a stable pool: normalises `x` by token0's scale and `y` by token1's scale
/// (floored), then applies the `_f` formula. Arguments are raw token amounts in pool order.
pub fn k_stable(x: U256, y: U256, scales: TokenScales) -> Result<U256, PoolError> {
    f(normalise_down(x, scales.scale0)?, normalise_down(y, scales.scale1)?)
}

/// `_get_y(x0, xy, y)`: the Newton solve for the output-side balance (1e18 units) that keeps
/// `_f(x0, y) >= xy`, starting from `y`. Mirrors the source's tie-breaks exactly, including its
/// quirk: the `y + 1` check calls `_k`, which re-normalises `x0` by token0's scale and `y + 1` by
/// token1's scale whatever the swap direction (a no-op only when both tokens have 18 decimals).
/// After [`MAX_NEWTON_ROUNDS`] rounds the pool reverts with `!y`: [`PoolError::NoConvergence`].
pub fn get_y(x0: U256, xy: U256, mut y: U256, scales: TokenScales) -> Result<U256, PoolError> {
    let one = U256::from(1);
    for _ in 0..MAX_NEWTON_ROUNDS {
        let k = f(x0, y)?;
        if k < xy {
            let mut dy = div(mul(xy - k, WAD)?, d(x0, y)?)?;
            if dy.is_zero() {
                // Unreachable while k < xy, but the source tests it, so we do too.
                if k == xy {
                    return Ok(y);
                }
                let y_up = add(y, one)?;
                if k_stable(x0, y_up, scales)? > xy {
                    return Ok(y_up);
                }
                dy = one;
            }
            y = add(y, dy)?;
        } else {
            let mut dy = div(mul(k - xy, WAD)?, d(x0, y)?)?;
            if dy.is_zero() {
                // Short-circuit as Solidity's `||` does: `y - 1` is only formed when k != xy.
                if k == xy || f(x0, sub(y, one)?)? < xy {
                    return Ok(y);
                }
                dy = one;
            }
            y = sub(y, dy)?;
        }
    }
    Err(PoolError::NoConvergence)
}

#[cfg(test)]
mod tests {
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
        let (x0, xy, y) = (u(6_126_200_000_000_000_000), u(550_582_538_588_571_181_855_730_400_042), u(4_479_300 * E18 / 1000));
        assert_eq!(get_y(x0, xy, y, TokenScales { scale0: u(1_000_000), scale1: WAD }), Err(PoolError::Overflow));
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
}
