//! `SwapMath.computeSwapStep` for exact input, in Uniswap V3's form and in V4's (which Pancake
//! Infinity CL shares). The two agree on the price and the output of a step; they differ in how the
//! step's input and fee are split when the target is not reached, and V4 admits a 100% fee.

use super::sqrt_price_math::{get_amount0_delta, get_amount1_delta, get_next_sqrt_price_from_input};
use crate::math::full_math::{mul_div, mul_div_rounding_up};
use crate::math::U256;
use crate::pools::PoolError;

/// Fee denominator: fees are in pips, hundredths of a basis point (1e6 = 100%).
pub const MAX_FEE_PIPS: u32 = 1_000_000;

/// Which contract's step rules to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRules {
    /// Uniswap V3 and its forks: fee < 100%; a step that stops short recomputes its input from the
    /// price it reached.
    V3,
    /// Uniswap V4 / Pancake Infinity: fee ≤ 100%; a step that stops short takes all the fee-less
    /// remainder as its input.
    V4,
}

/// One exact-input step: the price reached (Q64.96), the input used (fee excluded), the output paid
/// (rounded down) and the fee charged (rounded up when computed from the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapStep {
    pub sqrt_price_next_x96: U256,
    pub amount_in: U256,
    pub amount_out: U256,
    pub fee_amount: U256,
}

/// Moves the price from `sqrt_price_current_x96` toward `sqrt_price_target_x96` with at most
/// `amount_remaining` of input (fee included), as `SwapMath.computeSwapStep` does for exact input.
pub fn compute_swap_step_exact_in(
    sqrt_price_current_x96: U256,
    sqrt_price_target_x96: U256,
    liquidity: u128,
    amount_remaining: U256,
    fee_pips: u32,
    rules: StepRules,
) -> Result<SwapStep, PoolError> {
    let fee_limit = match rules {
        StepRules::V3 => MAX_FEE_PIPS - 1,
        StepRules::V4 => MAX_FEE_PIPS,
    };
    if fee_pips > fee_limit {
        return Err(PoolError::InvalidState(format!("swap fee of {fee_pips} pips")));
    }
    let zero_for_one = sqrt_price_current_x96 >= sqrt_price_target_x96;
    let fee = U256::from(fee_pips);
    let fee_complement = U256::from(MAX_FEE_PIPS - fee_pips);
    // The fee comes off the top, floored: the pool never credits more input than was paid for.
    let amount_remaining_less_fee = mul_div(amount_remaining, fee_complement, U256::from(MAX_FEE_PIPS))?;
    let amount_in_to_target = amount_in_between(sqrt_price_current_x96, sqrt_price_target_x96, liquidity, zero_for_one)?;

    let reaches_target = amount_remaining_less_fee >= amount_in_to_target;
    let sqrt_price_next_x96 = if reaches_target {
        sqrt_price_target_x96
    } else {
        get_next_sqrt_price_from_input(sqrt_price_current_x96, liquidity, amount_remaining_less_fee, zero_for_one)?
    };

    let (amount_in, fee_amount) = match (rules, reaches_target) {
        (StepRules::V4, true) => {
            // V4 guards the 100% fee (where the complement is zero): the input is then zero too.
            let fee_amount = if fee_pips == MAX_FEE_PIPS {
                amount_in_to_target
            } else {
                mul_div_rounding_up(amount_in_to_target, fee, fee_complement)?
            };
            (amount_in_to_target, fee_amount)
        }
        (StepRules::V4, false) => {
            // V4 books the whole fee-less remainder as input, even if the rounded price would have
            // needed less; the rest of the remainder is the fee. Output is the same as V3's.
            (amount_remaining_less_fee, amount_remaining - amount_remaining_less_fee)
        }
        (StepRules::V3, _) => {
            // V3 decides "target reached" by comparing prices, not amounts: a short step whose
            // rounded price lands exactly on the target keeps the target's input and a computed fee.
            let max = sqrt_price_next_x96 == sqrt_price_target_x96;
            let amount_in = if max {
                amount_in_to_target
            } else {
                amount_in_between(sqrt_price_current_x96, sqrt_price_next_x96, liquidity, zero_for_one)?
            };
            let fee_amount = if max {
                mul_div_rounding_up(amount_in, fee, fee_complement)?
            } else {
                // The input was rounded up from the price, so it never exceeds the remainder.
                amount_remaining.checked_sub(amount_in).ok_or(PoolError::Overflow)?
            };
            (amount_in, fee_amount)
        }
    };
    let amount_out = amount_out_between(sqrt_price_current_x96, sqrt_price_next_x96, liquidity, zero_for_one)?;
    Ok(SwapStep { sqrt_price_next_x96, amount_in, amount_out, fee_amount })
}

/// Input to move the price from `from` to `to`, rounded up (the pool receives it).
pub fn amount_in_between(from: U256, to: U256, liquidity: u128, zero_for_one: bool) -> Result<U256, PoolError> {
    if zero_for_one {
        get_amount0_delta(to, from, liquidity, true)
    } else {
        get_amount1_delta(from, to, liquidity, true)
    }
}

/// Output for moving the price from `from` to `to`, rounded down (the pool pays it).
pub fn amount_out_between(from: U256, to: U256, liquidity: u128, zero_for_one: bool) -> Result<U256, PoolError> {
    if zero_for_one {
        get_amount1_delta(to, from, liquidity, false)
    } else {
        get_amount0_delta(from, to, liquidity, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pools::clmm::sqrt_price_math::Q96;

    fn dec(text: &str) -> U256 {
        U256::from_str_radix(text, 10).unwrap()
    }
    const E18: u128 = 1_000_000_000_000_000_000;

    #[test]
    fn exact_in_capped_at_the_target_matches_v3() {
        // SwapMath.spec.ts "exact amount in that gets capped at price target in one for zero":
        // price 1/1 → 101/100, liquidity 2e18, 1e18 in, fee 600.
        let target = dec("79623317895830914510639640423");
        for rules in [StepRules::V3, StepRules::V4] {
            let step = compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, rules).unwrap();
            assert_eq!(step.amount_in, dec("9975124224178055"));
            assert_eq!(step.fee_amount, dec("5988667735148"));
            assert_eq!(step.amount_out, dec("9925619580021728"));
            assert_eq!(step.sqrt_price_next_x96, target);
        }
    }

    #[test]
    fn exact_in_fully_spent_matches_v3() {
        // "exact amount in that is fully spent in one for zero": price 1/1 → 1000/100, 1e18 in.
        let target = dec("250541448375047931186413801569");
        let v3 = compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, StepRules::V3).unwrap();
        assert_eq!(v3.amount_in, dec("999400000000000000"));
        assert_eq!(v3.fee_amount, dec("600000000000000"));
        assert_eq!(v3.amount_out, dec("666399946655997866"));
        assert!(v3.sqrt_price_next_x96 < target);
        // V4 splits the same step identically here (the fee-less remainder is exactly the input).
        let v4 = compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, StepRules::V4).unwrap();
        assert_eq!(v4, v3);
    }

    #[test]
    fn v4_admits_a_full_fee_and_v3_does_not() {
        let target = dec("79623317895830914510639640423");
        let v4 = compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), MAX_FEE_PIPS, StepRules::V4).unwrap();
        assert_eq!(v4.amount_in, U256::ZERO);
        assert_eq!(v4.amount_out, U256::ZERO);
        assert_eq!(v4.fee_amount, U256::from(E18));
        assert_eq!(v4.sqrt_price_next_x96, Q96);
        assert!(compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), MAX_FEE_PIPS, StepRules::V3).is_err());
        // With nothing to cross (zero liquidity) a full fee still reaches the target for free.
        let empty = compute_swap_step_exact_in(Q96, target, 0, U256::from(E18), MAX_FEE_PIPS, StepRules::V4).unwrap();
        assert_eq!((empty.sqrt_price_next_x96, empty.fee_amount), (target, U256::ZERO));
    }

    #[test]
    fn dust_is_all_fee_in_v3_and_split_in_v4() {
        // "entire input amount taken as fee": 10 wei at price 2413 with fee 1872 moves no price.
        let current = U256::from(2413u64);
        let target = dec("79887613182836312");
        let liquidity = 1_985_041_575_832_132_834_610_021_537_970u128;
        let v3 = compute_swap_step_exact_in(current, target, liquidity, U256::from(10u8), 1872, StepRules::V3).unwrap();
        assert_eq!((v3.amount_in, v3.fee_amount, v3.amount_out), (U256::ZERO, U256::from(10u8), U256::ZERO));
        assert_eq!(v3.sqrt_price_next_x96, current);
        // V4 books the fee-less remainder floor(10·(1e6−1872)/1e6) = 9 as input: same price and
        // output, different fee accounting.
        let v4 = compute_swap_step_exact_in(current, target, liquidity, U256::from(10u8), 1872, StepRules::V4).unwrap();
        assert_eq!((v4.amount_in, v4.fee_amount, v4.amount_out), (U256::from(9u8), U256::from(1u8), U256::ZERO));
        assert_eq!(v4.sqrt_price_next_x96, current);
    }

    #[test]
    fn input_plus_fee_never_exceeds_the_remainder_when_short() {
        let target = dec("250541448375047931186413801569");
        for amount in [1u128, 7, 1_000, 123_456_789, E18 / 3] {
            for rules in [StepRules::V3, StepRules::V4] {
                let step = compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(amount), 3000, rules).unwrap();
                assert_eq!(step.amount_in + step.fee_amount, U256::from(amount));
            }
        }
    }
}
