use super::*;
use crate::pools::clmm::sqrt_price_math::Q96;
use crate::pools::clmm::swap_math::{compute_swap_step_exact_in, StepRules};
use proptest::prelude::*;

fn dec(text: &str) -> U256 {
    U256::from_str_radix(text, 10).unwrap()
}
const E18: u128 = 1_000_000_000_000_000_000;

#[test]
fn same_vectors_as_v3_where_the_rules_agree() {
    let capped = dec("79623317895830914510639640423");
    let step =
        move_price_towards_target_exact_in(false, Q96, capped, 2 * E18, U256::from(E18), 600)
            .unwrap();
    assert_eq!(step.amount_in, dec("9975124224178055"));
    assert_eq!(step.fee_amount, dec("5988667735148"));
    assert_eq!(step.amount_out, dec("9925619580021728"));
    let far = dec("250541448375047931186413801569");
    let step =
        move_price_towards_target_exact_in(false, Q96, far, 2 * E18, U256::from(E18), 600).unwrap();
    assert_eq!(step.amount_in, dec("999400000000000000"));
    assert_eq!(step.amount_out, dec("666399946655997866"));
}

#[test]
fn full_fee_is_refused() {
    assert!(move_price_towards_target_exact_in(
        true,
        Q96,
        Q96 / U256::from(2),
        1,
        U256::from(1),
        MAX_FEE_PIPS
    )
    .is_err());
}

proptest! {
    /// Away from the rounding edge both contracts book the same price and output.
    #[test]
    fn agrees_with_v3_step(
        liquidity in 1u128..(1u128 << 100), amount in 0u128..(1u128 << 100),
        fee in 0u32..100_000, zero_to_one: bool, width in 1u64..1_000_000_000_000,
    ) {
        let current = Q96;
        let target = if zero_to_one { current - U256::from(width) * U256::from(1u64 << 40) } else { current + U256::from(width) * U256::from(1u64 << 40) };
        let algebra = move_price_towards_target_exact_in(zero_to_one, current, target, liquidity, U256::from(amount), fee);
        let v3 = compute_swap_step_exact_in(current, target, liquidity, U256::from(amount), fee, StepRules::V3, None).unwrap().0;
        match algebra {
            Ok(step) => prop_assert_eq!(step, v3),
            Err(_) => prop_assert_eq!(v3.sqrt_price_next_x96, target),
        }
    }
}
