use super::*;

#[test]
fn the_figures() {
    assert_eq!(MAX_PLAN_GAS, 14_260_633);
    assert_eq!(ROUTER_GAS_PER_LEG, 8_656);
    assert_eq!(ROUTER_GAS_PER_ROUTE, 3_848);
    assert_eq!(ROUTER_GAS_FIXED, 120_580);
}

#[test]
fn a_single_route_always_fits_and_more_fit_below_the_cap() {
    let cap = GasCap { l1_gas_per_leg: 1_000 };
    assert!(cap.admits(u64::MAX, 3, 1));
    // Two routes of two legs: legs' gas less 4 × 1,000 L1, plus the router's figures.
    let fixed = 4 * ROUTER_GAS_PER_LEG + 2 * ROUTER_GAS_PER_ROUTE + ROUTER_GAS_FIXED;
    let room = MAX_PLAN_GAS - fixed + 4 * 1_000;
    assert_eq!(cap.plan_gas(room, 4, 2), MAX_PLAN_GAS);
    assert!(cap.admits(room, 4, 2));
    assert!(!cap.admits(room + 1, 4, 2));
}
