use super::*;

#[test]
fn expires_on_the_reading_that_reaches_the_budget_and_stays_expired_without_reading() {
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(3, &clock);
    deadline.enter(Phase::Search);
    assert!(!deadline.expired() && !deadline.expired());
    deadline.enter(Phase::Evaluation);
    assert!(deadline.expired());
    assert_eq!(deadline.stopped_in(), Some(Phase::Evaluation));
    let reads = clock.0.get();
    deadline.enter(Phase::Optimizer);
    assert!(deadline.expired());
    assert_eq!((clock.0.get(), deadline.stopped_in()), (reads, Some(Phase::Evaluation)));
}

#[test]
fn the_work_clock_moves_with_work_not_with_readings() {
    let deadline = Deadline::after_ms(2, &WorkClock { units_per_ms: 1.0 });
    assert!(!deadline.expired() && !deadline.expired());
    count_work();
    assert!(!deadline.expired());
    count_work();
    assert!(deadline.expired());
}

#[test]
fn never_expires() {
    let deadline = Deadline::never();
    assert!(!deadline.expired());
    assert_eq!(deadline.stopped_in(), None);
}
