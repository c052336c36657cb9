use super::*;
use crate::dex::DexId;
use crate::pools::registry::spec;
use crate::route::test_market::{addr, cp_pool, market_of};

#[test]
fn a_pool_swapped_earlier_in_the_view_costs_its_kinds_repeated_leg_gas() {
    let market =
        market_of(vec![cp_pool(1, "UNIV2", addr(1), addr(2), 10u128.pow(24), 10u128.pow(24))]);
    let hop = Hop { pool: 0, token_in: 0, token_out: 1 };
    let amount = U256::from(10u128.pow(18));
    let mut overlay = Overlay::new(&market);
    let (_, first) = overlay.swap(hop, amount).unwrap();
    let (_, second) = overlay.swap(hop, amount).unwrap();
    let univ2 = spec(DexId::Univ2);
    assert!(univ2.gas_repeat_saving > 0);
    assert_eq!(first, univ2.gas_base);
    assert_eq!(second, univ2.gas_base - univ2.gas_repeat_saving);
    // A fresh view (another plan) starts cold again.
    assert_eq!(Overlay::new(&market).swap(hop, amount).unwrap().1, univ2.gas_base);
}
