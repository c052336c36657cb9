use super::*;

#[test]
fn unpacks_each_direction() {
    let packed = (1000 << 12) | 250;
    assert_eq!(directional_protocol_fee_pips(packed, true), 250);
    assert_eq!(directional_protocol_fee_pips(packed, false), 1000);
}

#[test]
fn composes_as_calculate_swap_fee() {
    assert_eq!(calculate_swap_fee_pips(0, 3000), 3000);
    // 1000 + 3000 − floor(3e6/1e6) = 3997.
    assert_eq!(calculate_swap_fee_pips(1000, 3000), 3997);
    // 4000 + 500 − floor(2e6/1e6) = 4498.
    assert_eq!(calculate_swap_fee_pips(4000, 500), 4498);
    // The floor of a fraction rounds the composed fee up: 1 + 999_999 − 0 = 1e6 (100%).
    assert_eq!(calculate_swap_fee_pips(1, 999_999), 1_000_000);
    assert_eq!(calculate_swap_fee_pips(4000, 1_000_000), 1_000_000);
    assert_eq!(calculate_swap_fee_pips(7, 0), 7);
}
