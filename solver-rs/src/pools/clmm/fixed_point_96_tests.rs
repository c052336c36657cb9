use super::*;
use crate::math::full_math::mul_div_rem;
use proptest::prelude::*;

/// `mul_div`'s answer: the quotient and whether a remainder was left, or its error.
fn reference(a: U256, b: u128) -> Result<(U256, bool), PoolError> {
    mul_div_rem(a, U256::from(b), Q96).map(|(q, r)| (q, !r.is_zero()))
}

fn wide(limbs: [u64; 4]) -> U256 {
    U256::from_limbs(limbs)
}

#[test]
fn shift_matches_mul_div_at_the_edges() {
    let cases = [
        (U256::ZERO, 0u128),
        (U256::from(1), 1),
        (Q96, 1),
        (Q96 - U256::from(1), 1),
        (U256::MAX, 1),
        (U256::MAX, u128::MAX),
        (U256::MAX >> 32, u128::MAX >> 64),
        (U256::MAX >> 32, (u128::MAX >> 64) + 1),
        (U256::MAX >> 128, u128::MAX),
        (wide([0, 0, 0, 1 << 32]), 1 << 64),
    ];
    for (a, b) in cases {
        assert_eq!(mul_shr_96(a, b), reference(a, b), "{a} · {b}");
    }
    // 2^256 − 1 scaled by 2^96 and back still fits; twice that is the contract's revert, not a
    // wrapped value.
    assert_eq!(mul_shr_96(U256::MAX, 1 << 96), Ok((U256::MAX, false)));
    assert_eq!(mul_shr_96(U256::MAX, 1 << 97), Err(PoolError::Overflow));
}

proptest! {
    #[test]
    fn shift_matches_mul_div(limbs in any::<[u64; 4]>(), top in 0u32..=256, b in any::<u128>(), b_bits in 0u32..=128) {
        // Operands of every width, so that both the overflow and the exact paths are drawn.
        let a = wide(limbs).wrapping_shr(256 - top as usize);
        let b = b.checked_shr(128 - b_bits).unwrap_or(0);
        prop_assert_eq!(mul_shr_96(a, b), reference(a, b));
    }
}
