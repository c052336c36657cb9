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
fn phases_are_timed_on_the_host_clock_in_the_order_first_entered_and_never_without_a_clock() {
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
    // A phase entered again (the optimizer, resumed after the re-split) adds to its first entry.
    deadline.enter(Phase::Search);
    let again: Vec<Phase> = deadline.phase_ms().0.iter().map(|(phase, _)| *phase).collect();
    assert_eq!(again, phases);
    let never = Deadline::never();
    never.enter(Phase::Search);
    assert!(never.phase_ms().is_empty());
}

#[test]
fn a_share_ends_its_fraction_of_the_time_left_and_never_after_the_deadline() {
    // Readings 0 (the deadline: at 10), 1 (the deadline checked), 2 (the share: 2 + 0.5 × 8 = 6).
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(10, &clock);
    assert!(!deadline.expired());
    let share = deadline.share(0.5);
    // Readings 3, 4, 5 are before it; 6 reaches it, while the deadline has not passed.
    assert!(!share.expired() && !share.expired() && !share.expired());
    assert!(share.expired() && !deadline.expired());
    // A share of more than the whole is the whole (reading 8: at 10, reached at reading 10); of a
    // deadline passed, passed.
    let whole = deadline.share(7.0);
    assert!(!whole.expired());
    assert!(whole.expired());
    assert!(deadline.expired());
    assert!(deadline.share(0.5).expired());
    assert!(!Deadline::never().share(0.0).expired());
}

#[test]
fn a_cut_by_a_share_is_reported_unless_the_deadline_stopped_the_solve() {
    let clock = SteppingClock::default();
    let deadline = Deadline::after_ms(4, &clock);
    deadline.enter(Phase::Optimizer);
    deadline.note_cut(Phase::Optimizer);
    assert_eq!(deadline.cut_by_share(), Some(Phase::Optimizer));
    assert_eq!(deadline.stopped_or_cut_in(), Some(Phase::Optimizer));
    deadline.enter(Phase::Resplit);
    while !deadline.expired() {}
    // The deadline's own phase first; a cut after it is not recorded.
    assert_eq!(deadline.stopped_or_cut_in(), Some(Phase::Resplit));
    let late = Deadline::after_ms(0, &clock);
    assert!(late.expired());
    late.note_cut(Phase::Optimizer);
    assert_eq!((late.cut_by_share(), late.stopped_or_cut_in()), (None, Some(Phase::Search)));
}

#[test]
fn reading_every_reads_at_the_first_check_then_after_enough_work_or_checks() {
    let clock = SteppingClock::default();
    let every = ReadEvery { units: 3, checks: 4 };
    // Reading 0 sets the deadline at 100; the first check reads (1), whatever the work.
    let deadline = Deadline::after_ms(100, &clock).reading_every(Some(every));
    assert!(!deadline.expired());
    assert_eq!(clock.0.get(), 2.0);
    // Three checks without work go unread; the fourth reads.
    for _ in 0..3 {
        assert!(!deadline.expired());
    }
    assert_eq!(clock.0.get(), 2.0);
    assert!(!deadline.expired());
    assert_eq!(clock.0.get(), 3.0);
    // Two units of work: unread; the third unit makes the next check read.
    count_work();
    count_work();
    assert!(!deadline.expired());
    assert_eq!(clock.0.get(), 3.0);
    count_work();
    assert!(!deadline.expired());
    assert_eq!(clock.0.get(), 4.0);
    // Natively every check reads.
    assert_eq!(READ_EVERY, None);
    let every_check = Deadline::after_ms(100, &clock);
    assert!(!every_check.expired() && !every_check.expired());
    assert_eq!(clock.0.get(), 7.0);
}

#[test]
fn reading_every_still_stops_at_the_first_check_of_a_passed_budget_and_bounds_the_work_past_it() {
    // A budget already spent when the deadline is set (a quote queued past it) stops at its first check.
    let waited = Deadline::after_wait(5, 10.0, &WorkClock { units_per_ms: 1.0 })
        .reading_every(Some(ReadEvery { units: 8, checks: 8 }));
    assert!(waited.expired());
    // One unit per check: the budget of 2 units is found passed within 8 units of work past it.
    let deadline = Deadline::after_ms(2, &WorkClock { units_per_ms: 1.0 })
        .reading_every(Some(ReadEvery { units: 8, checks: 8 }));
    let start = work_done();
    while !deadline.expired() {
        count_work();
    }
    let spent = work_done() - start;
    assert!((2..=2 + 8).contains(&spent), "{spent}");
}
