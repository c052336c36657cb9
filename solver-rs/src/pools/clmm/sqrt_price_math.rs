//! `SqrtPriceMath`: token amounts between two square-root prices and the price after an input, with
//! Uniswap V3's rounding (V4, Pancake Infinity and Algebra's `TokenDeltaMath` / `getNewPrice`
//! round the same way). Every rounding favours the pool: amounts it receives round up, amounts it
//! pays round down, and a price moved by an input moves no further than the input pays for.

use crate::math::div::div_rem;
use crate::math::full_math::{div_rounding_up, mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

/// Q96 = 2^96, the scale of a Q64.96 square-root price.
pub const Q96: U256 = U256::from_limbs([0, 1 << 32, 0, 0]);
/// The largest uint160, the width of a stored square-root price.
pub const MAX_U160: U256 = U256::from_limbs([u64::MAX, u64::MAX, u32::MAX as u64, 0]);

/// Token0 between two square-root prices (Q64.96) for `liquidity`: L·2^96·(√b−√a)/(√b·√a), rounded
/// up when the pool receives it (`round_up`), down when it pays it. Errors on a zero price.
pub fn get_amount0_delta(
    sqrt_ratio_a_x96: U256,
    sqrt_ratio_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, PoolError> {
    let (lower, upper) = ordered(sqrt_ratio_a_x96, sqrt_ratio_b_x96);
    if lower.is_zero() {
        return Err(PoolError::InvalidState("zero sqrt price".into()));
    }
    let numerator1: U256 = U256::from(liquidity) << 96;
    let numerator2 = upper - lower;
    if round_up {
        // Two ceilings in a row, as the contract does: the pool never receives less than owed.
        div_rounding_up(mul_div_rounding_up(numerator1, numerator2, upper)?, lower)
    } else {
        Ok(div_rem(mul_div(numerator1, numerator2, upper)?, lower).0)
    }
}

/// Token1 between two square-root prices (Q64.96): L·(√b−√a)/2^96, rounded up when the pool
/// receives it (`round_up`), down when it pays it.
pub fn get_amount1_delta(
    sqrt_ratio_a_x96: U256,
    sqrt_ratio_b_x96: U256,
    liquidity: u128,
    round_up: bool,
) -> Result<U256, PoolError> {
    let (lower, upper) = ordered(sqrt_ratio_a_x96, sqrt_ratio_b_x96);
    let liquidity = U256::from(liquidity);
    if round_up {
        mul_div_rounding_up(liquidity, upper - lower, Q96)
    } else {
        mul_div(liquidity, upper - lower, Q96)
    }
}

/// The square-root price (Q64.96) after `amount_in` of token0 (`zero_for_one`) or token1 enters at
/// `sqrt_price_x96`. Errors on a zero price or liquidity (the contract's `require`s) and when the
/// result leaves uint160.
pub fn get_next_sqrt_price_from_input(
    sqrt_price_x96: U256,
    liquidity: u128,
    amount_in: U256,
    zero_for_one: bool,
) -> Result<U256, PoolError> {
    if sqrt_price_x96.is_zero() {
        return Err(PoolError::InvalidState("zero sqrt price".into()));
    }
    if liquidity == 0 {
        return Err(PoolError::DivisionByZero);
    }
    if zero_for_one {
        next_price_from_amount0_rounding_up(sqrt_price_x96, liquidity, amount_in)
    } else {
        next_price_from_amount1_rounding_down(sqrt_price_x96, liquidity, amount_in)
    }
}

/// √P' = L·2^96·√P / (L·2^96 + in·√P), rounded up: token0 in lowers the price, and rounding up
/// keeps the price from moving further than the input pays for.
fn next_price_from_amount0_rounding_up(sqrt_price_x96: U256, liquidity: u128, amount: U256) -> Result<U256, PoolError> {
    if amount.is_zero() {
        return Ok(sqrt_price_x96);
    }
    let numerator1: U256 = U256::from(liquidity) << 96;
    if let Some(product) = amount.checked_mul(sqrt_price_x96) {
        if let Some(denominator) = numerator1.checked_add(product) {
            // The contract takes this path only when neither step overflows; the result fits 160 bits.
            return mul_div_rounding_up(numerator1, sqrt_price_x96, denominator);
        }
    }
    // The contract's fallback form L·2^96 / (L·2^96/√P + in), also rounded up; its checked add
    // reverts on overflow, which is an error here.
    let denominator = div_rem(numerator1, sqrt_price_x96).0.checked_add(amount).ok_or(PoolError::Overflow)?;
    div_rounding_up(numerator1, denominator)
}

/// √P' = √P + in·2^96/L, the quotient rounded down: token1 in raises the price, and rounding down
/// keeps the price from moving further than the input pays for.
fn next_price_from_amount1_rounding_down(sqrt_price_x96: U256, liquidity: u128, amount: U256) -> Result<U256, PoolError> {
    let liquidity = U256::from(liquidity);
    let quotient = if amount <= MAX_U160 { div_rem(amount << 96, liquidity).0 } else { mul_div(amount, Q96, liquidity)? };
    let next = sqrt_price_x96.checked_add(quotient).ok_or(PoolError::Overflow)?;
    // `toUint160` in the contract: a price that leaves 160 bits reverts.
    if next > MAX_U160 {
        return Err(PoolError::Overflow);
    }
    Ok(next)
}

fn ordered(a: U256, b: U256) -> (U256, U256) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

#[cfg(test)]
mod tests {
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
            get_next_sqrt_price_from_input(price_1_1(), 10 * ONE_E18, U256::from(1) << 100, true).unwrap(),
            dec("624999999995069620")
        );
        // "can return 1 with enough amountIn and zeroForOne".
        assert_eq!(get_next_sqrt_price_from_input(price_1_1(), 1, U256::MAX / U256::from(2), true).unwrap(), U256::from(1));
    }

    #[test]
    fn next_price_from_input_edges() {
        // Zero input returns the price; zero price or liquidity are errors, not panics.
        assert_eq!(get_next_sqrt_price_from_input(price_1_1(), ONE_E18, U256::ZERO, true).unwrap(), price_1_1());
        assert_eq!(get_next_sqrt_price_from_input(price_1_1(), ONE_E18, U256::ZERO, false).unwrap(), price_1_1());
        assert!(get_next_sqrt_price_from_input(U256::ZERO, 1, U256::from(1), true).is_err());
        assert!(get_next_sqrt_price_from_input(U256::from(1), 0, U256::from(1), true).is_err());
        // "fails if input amount overflows the price": token1 in beyond 160 bits.
        assert!(get_next_sqrt_price_from_input(MAX_U160, 1024, U256::from(1024), false).is_err());
        // An input overflowing the product takes the fallback, whose checked add reverts in the
        // contract: an error here, never a panic or a wrapped value.
        assert_eq!(get_next_sqrt_price_from_input(MAX_U160, u128::MAX, U256::MAX, true), Err(PoolError::Overflow));
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
        let short = get_next_sqrt_price_from_input(current, liquidity, needed - U256::from(1), false).unwrap();
        assert!(short <= target);
    }
}
