use super::*;
use crate::route::clock::SteppingClock;

#[test]
fn the_whole_budget_is_the_deadline() {
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(2, &clock);
    let budget = Budget::whole(&deadline);
    budget.saw(U256::from(1));
    assert!(!budget.expired());
    assert!(budget.expired());
    assert_eq!((budget.stopped_in(), budget.cut_in()), (Some(Phase::Search), None));
}

#[test]
fn the_share_cuts_the_optimizer_only_while_its_best_is_short() {
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(100, &clock);
    deadline.enter(Phase::Optimizer);
    // Readings 0 (deadline at 100) and 1 (the share: at 1.5).
    let short_below = U256::from(1_000);
    let budget = Budget::shared(&deadline, deadline.share(0.005), short_below);
    budget.saw(short_below);
    // Past the share (readings 2, 3, ...), but an allocation reached `short_below`: no cut.
    assert!(!budget.expired() && !budget.expired());
    assert_eq!(budget.stopped_in(), None);

    let deadline = Deadline::after_ms(100, &clock);
    deadline.enter(Phase::Optimizer);
    let budget = Budget::shared(&deadline, deadline.share(0.0), short_below);
    budget.saw(U256::from(999));
    assert!(budget.expired());
    // Sticky, without reading the clock again; the deadline itself has not passed.
    let reads = clock.0.get();
    assert!(budget.expired());
    budget.saw(short_below);
    assert!(budget.expired());
    assert_eq!(clock.0.get(), reads);
    assert_eq!((budget.cut_in(), deadline.stopped_in()), (Some(Phase::Optimizer), None));
    assert_eq!(budget.stopped_in(), Some(Phase::Optimizer));
}
