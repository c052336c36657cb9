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
        let step =
            compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, rules, None)
                .unwrap()
                .0;
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
    let v3 =
        compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, StepRules::V3, None)
            .unwrap()
            .0;
    assert_eq!(v3.amount_in, dec("999400000000000000"));
    assert_eq!(v3.fee_amount, dec("600000000000000"));
    assert_eq!(v3.amount_out, dec("666399946655997866"));
    assert!(v3.sqrt_price_next_x96 < target);
    // V4 splits the same step identically here (the fee-less remainder is exactly the input).
    let v4 =
        compute_swap_step_exact_in(Q96, target, 2 * E18, U256::from(E18), 600, StepRules::V4, None)
            .unwrap()
            .0;
    assert_eq!(v4, v3);
}

#[test]
fn v4_admits_a_full_fee_and_v3_does_not() {
    let target = dec("79623317895830914510639640423");
    let full_fee = |liquidity: u128, rules| {
        let step = compute_swap_step_exact_in(
            Q96,
            target,
            liquidity,
            U256::from(E18),
            MAX_FEE_PIPS,
            rules,
            None,
        );
        step.map(|(step, _)| step)
    };
    let v4 = full_fee(2 * E18, StepRules::V4).unwrap();
    assert_eq!(v4.amount_in, U256::ZERO);
    assert_eq!(v4.amount_out, U256::ZERO);
    assert_eq!(v4.fee_amount, U256::from(E18));
    assert_eq!(v4.sqrt_price_next_x96, Q96);
    assert!(full_fee(2 * E18, StepRules::V3).is_err());
    // With nothing to cross (zero liquidity) a full fee still reaches the target for free.
    let empty = full_fee(0, StepRules::V4).unwrap();
    assert_eq!((empty.sqrt_price_next_x96, empty.fee_amount), (target, U256::ZERO));
}

#[test]
fn dust_is_all_fee_in_v3_and_split_in_v4() {
    // "entire input amount taken as fee": 10 wei at price 2413 with fee 1872 moves no price.
    let current = U256::from(2413u64);
    let target = dec("79887613182836312");
    let liquidity = 1_985_041_575_832_132_834_610_021_537_970u128;
    let dust = |rules| {
        let amount = U256::from(10u8);
        compute_swap_step_exact_in(current, target, liquidity, amount, 1872, rules, None).unwrap().0
    };
    let v3 = dust(StepRules::V3);
    assert_eq!(
        (v3.amount_in, v3.fee_amount, v3.amount_out),
        (U256::ZERO, U256::from(10u8), U256::ZERO)
    );
    assert_eq!(v3.sqrt_price_next_x96, current);
    // V4 books the fee-less remainder floor(10·(1e6−1872)/1e6) = 9 as input: same price and
    // output, different fee accounting.
    let v4 = dust(StepRules::V4);
    assert_eq!(
        (v4.amount_in, v4.fee_amount, v4.amount_out),
        (U256::from(9u8), U256::from(1u8), U256::ZERO)
    );
    assert_eq!(v4.sqrt_price_next_x96, current);
}

#[test]
fn input_plus_fee_never_exceeds_the_remainder_when_short() {
    let target = dec("250541448375047931186413801569");
    for amount in [1u128, 7, 1_000, 123_456_789, E18 / 3] {
        for rules in [StepRules::V3, StepRules::V4] {
            let step = compute_swap_step_exact_in(
                Q96,
                target,
                2 * E18,
                U256::from(amount),
                3000,
                rules,
                None,
            )
            .unwrap()
            .0;
            assert_eq!(step.amount_in + step.fee_amount, U256::from(amount));
        }
    }
}

proptest::proptest! {
    /// A step given the input to its target (as the tick walk keeps it) is the step that
    /// computes it.
    #[test]
    fn known_input_to_target_changes_nothing(current in 1u128 << 80..1u128 << 110, target in 1u128 << 80..1u128 << 110, liquidity in 1u128..1u128 << 100, remaining in 1u128.., fee_pips in 0u32..MAX_FEE_PIPS, v4 in proptest::prelude::any::<bool>()) {
        let rules = if v4 { StepRules::V4 } else { StepRules::V3 };
        let (current, target, remaining) = (U256::from(current), U256::from(target), U256::from(remaining));
        let step = |known| compute_swap_step_exact_in(current, target, liquidity, remaining, fee_pips, rules, known);
        let computed = step(None);
        if let Ok((_, to_target)) = computed {
            proptest::prop_assert_eq!(step(Some(to_target)), computed);
        }
    }
}
