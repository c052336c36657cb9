use super::*;

#[test]
fn the_midpoint_of_amounts_near_the_top_does_not_wrap() {
    assert_eq!(midpoint(U256::MAX - U256::from(2), U256::MAX), U256::MAX - U256::from(1));
    assert_eq!(midpoint(U256::ZERO, U256::MAX), U256::MAX >> 1);
    assert_eq!(midpoint(U256::from(7), U256::from(7)), U256::from(7));
}

#[test]
fn finds_the_threshold_and_stops_when_asked() {
    let threshold = U256::MAX - U256::from(12_345);
    let (lo, hi) = bisect(U256::ZERO, U256::MAX, 300, |x| Some(x <= threshold)).unwrap();
    assert_eq!((lo, hi), (threshold, threshold + U256::from(1)));
    let mut asked = 0;
    assert_eq!(
        bisect(U256::ZERO, U256::MAX, 300, |_| {
            asked += 1;
            (asked < 3).then_some(true)
        }),
        None
    );
    assert_eq!(asked, 3);
}
