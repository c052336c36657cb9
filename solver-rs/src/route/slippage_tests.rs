use super::*;
use crate::math::U512;
use proptest::prelude::*;

/// The reference: the same floor, computed at 512 bits with ruint's own operators.
fn reference(amount: U256, slippage_bps: u32) -> U256 {
    let wide = U512::from(amount) * U512::from(BPS - slippage_bps) / U512::from(BPS);
    U256::from(wide)
}

#[test]
fn every_slippage_at_and_just_below_the_largest_amount() {
    for amount in [
        U256::MAX,
        U256::MAX - U256::from(1),
        U256::MAX - U256::from(9_999),
        U256::MAX >> 1,
        U256::from(1) << 243,
    ] {
        for slippage in 0..=BPS {
            let got = min_out(amount, slippage).unwrap();
            assert_eq!(got, reference(amount, slippage), "{amount} at {slippage} bps");
            assert!(got <= amount);
        }
    }
}

#[test]
fn boundaries_and_a_slippage_past_the_denominator() {
    assert_eq!(min_out(U256::ZERO, 50).unwrap(), U256::ZERO);
    assert_eq!(min_out(U256::from(9_999), BPS).unwrap(), U256::ZERO);
    assert_eq!(min_out(U256::from(10_000), 1).unwrap(), U256::from(9_999));
    assert_eq!(min_out(U256::from(19_999), 1).unwrap(), U256::from(19_997));
    assert!(matches!(min_out(U256::from(1), BPS + 1), Err(SolverError::InvalidInput { .. })));
}

proptest! {
    #[test]
    fn matches_the_wide_reference_near_the_top(
        below_max in any::<u128>(), high_limbs in any::<[u64; 2]>(), slippage in 0u32..=BPS,
    ) {
        // Amounts from 2^256 − 1 down, and amounts with random top limbs (all past 2^128).
        let near_top = U256::MAX - U256::from(below_max);
        let high = U256::from_limbs([high_limbs[0], 1, high_limbs[1], high_limbs[1] | 1]);
        for amount in [near_top, high] {
            prop_assert_eq!(min_out(amount, slippage).unwrap(), reference(amount, slippage));
        }
    }
}
