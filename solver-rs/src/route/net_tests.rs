use super::*;
use crate::math::U512;
use proptest::prelude::*;

#[test]
fn orders_by_difference() {
    let n = |g: u64, c: u64| Net::new(U256::from(g), U256::from(c));
    assert!(n(100, 10) > n(95, 10));
    assert!(n(100, 10) < n(100, 9));
    assert_eq!(n(100, 10).cmp(&n(91, 1)), Ordering::Equal);
    assert!(n(5, 10) < n(0, 0));
}

#[test]
fn a_wei_of_gas_still_counts_at_the_largest_output() {
    let (max, one) = (U256::MAX, U256::from(1));
    assert!(Net::new(max, one) < Net::new(max, U256::ZERO));
    assert!(Net::new(max - one, U256::ZERO) > Net::new(max, one + one));
    assert_eq!(Net::new(max, max).cmp(&Net::ZERO), Ordering::Equal);
}

proptest! {
    #[test]
    fn orders_as_the_exact_difference_near_the_top(a in any::<[u64; 4]>(), b in any::<[u64; 4]>(), near in any::<[u32; 4]>()) {
        // Grosses and costs within 2^32 of 2^256 − 1, and arbitrary ones.
        let top = |k: u32| U256::MAX - U256::from(k);
        let cases = [
            (Net::new(top(near[0]), U256::from(near[1])), Net::new(top(near[2]), U256::from(near[3]))),
            (Net::new(top(near[0]), top(near[1])), Net::new(top(near[2]), top(near[3]))),
            (Net::new(U256::from_limbs(a), top(near[1])), Net::new(U256::from_limbs(b), U256::from(near[3]))),
        ];
        for (x, y) in cases {
            let exact = (U512::from(x.gross) + U512::from(y.cost)).cmp(&(U512::from(y.gross) + U512::from(x.cost)));
            prop_assert_eq!(x.cmp(&y), exact, "{:?} vs {:?}", x, y);
        }
    }
}
