use super::*;
use proptest::prelude::*;

proptest! {
    #[test]
    fn the_output_bound_holds(
        r_in in 1u128..(1u128 << 112), r_out in 1u128..(1u128 << 112), a in 1u128..(1u128 << 112),
        small in 1u128..1_000_000, fee_bps in prop::sample::select(vec![0u32, 25, 30, 100, 9_999]), zfo: bool,
    ) {
        let (r0, r1) = if zfo { (r_in, r_out) } else { (r_out, r_in) };
        let pool = CpmmPool { reserve0: U256::from(r0), reserve1: U256::from(r1), fee_bps };
        let (i, o) = if zfo { (0, 1) } else { (1, 0) };
        for amount in [a, small] {
            if let Ok(outcome) = pool.amount_out(i, o, U256::from(amount)) {
                let bound = pool.amount_out_bound(i, o, amount as f64);
                prop_assert!(f64::from(outcome.amount_out) <= bound * (1.0 + 1e-12), "{} > {bound}", outcome.amount_out);
            }
        }
    }
}
