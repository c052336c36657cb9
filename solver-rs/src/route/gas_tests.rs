use super::*;
use proptest::prelude::*;
use ruint::Uint;

type U1024 = Uint<1024, 16>;

/// ceil(price · units · num / den) at 1024 bits with ruint's own operators, saturated.
fn reference(price: U256, units: u64, num: U256, den: U256) -> U256 {
    let product = U1024::from(price) * U1024::from(units) * U1024::from(num);
    let den = U1024::from(den);
    let ceil = (product + den - U1024::from(1)) / den;
    if ceil > U1024::from(U256::MAX) {
        U256::MAX
    } else {
        U256::from(ceil)
    }
}

fn pricer(price: U256, num: U256, den: U256) -> GasPricer {
    GasPricer::new(price, num, den)
}

#[test]
fn a_gas_price_near_the_top_is_not_understated() {
    // 2^250 wei per gas × 2^20 gas is past 2^256, but at 2^-40 tokenOut per wei it costs 2^230.
    let price = U256::from(1) << 250;
    let p = pricer(price, U256::from(1), U256::from(1) << 40);
    assert_eq!(p.cost(1 << 20), U256::from(1) << 230);
    assert_eq!(pricer(U256::MAX, U256::from(2), U256::from(1)).cost(2), U256::MAX);
    assert_eq!(pricer(U256::MAX, U256::from(1), U256::from(1)).cost(1), U256::MAX);
}

#[test]
fn only_complete_pricers_are_cached() {
    let pricers = GasPricers::default();
    let (partial, complete) = (
        pricer(U256::from(1), U256::from(1), U256::from(2)),
        pricer(U256::from(1), U256::from(3), U256::from(2)),
    );
    let got = pricers.get_or_price(0, 1, U256::from(1), || (partial.clone(), false));
    assert_eq!(got.rate_num, partial.rate_num);
    // Not remembered: the next quote prices again, and remembers a complete answer.
    let got = pricers.get_or_price(0, 1, U256::from(1), || (complete.clone(), true));
    assert_eq!(got.rate_num, complete.rate_num);
    let got = pricers.get_or_price(0, 1, U256::from(1), || panic!("a complete pricer is cached"));
    assert_eq!(got.rate_num, complete.rate_num);
}

proptest! {
    #[test]
    fn matches_the_wide_reference(
        price_below_max in any::<u128>(), price_limbs in any::<[u64; 4]>(), units in 1u64..,
        num_limbs in any::<[u64; 4]>(), den_limbs in any::<[u64; 4]>(), den_small in 1u64..,
    ) {
        let num = U256::from_limbs(num_limbs).max(U256::from(1));
        for price in [U256::MAX - U256::from(price_below_max), U256::from_limbs(price_limbs)] {
            for den in [U256::from_limbs(den_limbs).max(U256::from(1)), U256::from(den_small)] {
                prop_assert_eq!(pricer(price, num, den).cost(units), reference(price, units, num, den));
            }
        }
    }
}
