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

#[test]
fn phases_are_timed_on_the_host_clock_in_the_order_entered_and_never_without_a_clock() {
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(1_000, &clock);
    deadline.enter(Phase::Search);
    deadline.enter(Phase::Evaluation);
    let reads = clock.0.get();
    let times = deadline.phase_ms();
    // The deadline's clock is not read for timing (a test clock's readings stay the budget's).
    assert_eq!(clock.0.get(), reads);
    let phases: Vec<Phase> = times.0.iter().map(|(phase, _)| *phase).collect();
    assert_eq!(phases, [Phase::Search, Phase::Evaluation]);
    assert!(times.0.iter().all(|(_, ms)| *ms >= 0.0));
    let never = Deadline::never();
    never.enter(Phase::Search);
    assert!(never.phase_ms().is_empty());
}
