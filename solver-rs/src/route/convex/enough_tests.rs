use super::{Floor, CLOSE_ENOUGH};
use crate::math::U256;
use crate::route::convex::VAULT_HOPS_WORTH;

#[test]
fn reached_only_within_the_optimizers_closeness_of_the_plan() {
    let paid = 3_010_862_889u64;
    let floor = Floor::of(U256::from(paid));
    let paid = paid as f64;
    // g at the plan, or a hair above it: nothing left to gain.
    assert!(floor.reached(paid));
    assert!(floor.reached(paid * (1.0 + 0.9 * CLOSE_ENOUGH)));
    // Just past the closeness (0.05 bps plus the room for rounding): the solve goes on.
    assert!(!floor.reached(paid * (1.0 + CLOSE_ENOUGH)));
    assert!(!floor.reached(paid * 1.001));
    // Below the plan (g cannot be, but a NaN or any g must not panic): reached; NaN never.
    assert!(floor.reached(paid * 0.5));
    assert!(!floor.reached(f64::NAN));
}

#[test]
fn no_plan_is_never_reached() {
    assert!(!Floor::NONE.reached(0.0));
    assert!(!Floor::of(U256::ZERO).reached(0.0));
    assert_eq!(Floor::of(U256::ZERO), Floor::NONE);
    // A raw unit or two of output: the certificate's rounding up is more than 0.05 bps of it.
    assert!(!Floor::of(U256::from(2u64)).reached(2.0));
}

#[test]
fn within_a_wider_share_is_reached_sooner() {
    let floor = Floor::of(U256::from(3_010_862_889u64));
    let paid = 3_010_862_889f64;
    // 0.5 bps above the plan: past the optimizer's closeness, within the vault hops' threshold.
    let g = paid * (1.0 + 0.5 * VAULT_HOPS_WORTH);
    assert!(!floor.reached(g));
    assert!(floor.within(g, VAULT_HOPS_WORTH));
    assert!(!floor.within(paid * (1.0 + 1.1 * VAULT_HOPS_WORTH), VAULT_HOPS_WORTH));
    assert!(!Floor::NONE.within(0.0, VAULT_HOPS_WORTH));
}
