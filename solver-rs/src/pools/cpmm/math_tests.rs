use super::*;
use proptest::prelude::*;

fn u(x: u128) -> U256 {
    U256::from(x)
}

#[test]
fn matches_the_v2_formula() {
    // 1e18 in against 100e18 / 200_000e6 at 30 bps.
    let out =
        amount_out(u(10u128.pow(18)), u(100 * 10u128.pow(18)), u(200_000 * 10u128.pow(6)), 30)
            .unwrap();
    let expected = (10u128.pow(18) * 9970 * 200_000 * 10u128.pow(6))
        / (100 * 10u128.pow(18) * 10_000 + 10u128.pow(18) * 9970);
    assert_eq!(out, u(expected));
}

#[test]
fn empty_reserves_and_dust_are_errors() {
    assert_eq!(amount_out(u(1), U256::ZERO, u(1), 30), Err(PoolError::InsufficientLiquidity));
    assert_eq!(
        amount_out(u(1), u(10u128.pow(18)), u(10), 30),
        Err(PoolError::InsufficientLiquidity)
    );
    assert_eq!(amount_out(U256::ZERO, u(5), u(5), 30), Ok(U256::ZERO));
}

proptest! {
    #[test]
    fn monotone_bounded_and_rounded_down(
        r_in in 1u128..(1u128 << 112), r_out in 1u128..(1u128 << 112),
        a in 1u128..(1u128 << 112), b in 1u128..(1u128 << 112), fee in 0u32..1000,
    ) {
        let (small, large) = if a <= b { (a, b) } else { (b, a) };
        let out_small = amount_out(u(small), u(r_in), u(r_out), fee);
        let out_large = amount_out(u(large), u(r_in), u(r_out), fee);
        if let (Ok(s), Ok(l)) = (&out_small, &out_large) {
            prop_assert!(s <= l);
            prop_assert!(*l < u(r_out));
            // K never decreases with the fee-adjusted balances (the pair's own check) ...
            let bal_in = u(r_in + large);
            let bal_out = u(r_out) - *l;
            let adj_in = bal_in * u(10_000) - u(large) * U256::from(fee);
            prop_assert!(adj_in * bal_out * u(10_000) >= u(r_in) * u(r_out) * u(10_000) * u(10_000));
            // ... and one more wei of output would break it: the output is the floor.
            let bal_out_plus = bal_out - u(1);
            prop_assert!(adj_in * bal_out_plus * u(10_000) < u(r_in) * u(r_out) * u(10_000) * u(10_000));
        }
        if out_small.is_err() {
            prop_assert_eq!(out_small, Err(PoolError::InsufficientLiquidity));
        }
    }
}
