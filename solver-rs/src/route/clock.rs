//! The time budget of a quote (`timeBudgetMs`): a clock that can be swapped for a test's, and the
//! deadline every phase of the solve checks. `std::time::Instant` does not exist on
//! wasm32-unknown-unknown, so the WASM build reads `performance.now()` from its host.

use serde::Serialize;
use std::cell::{Cell, RefCell};

/// A monotonic source of time, in milliseconds from an arbitrary origin.
pub trait Clock {
    /// The time now, in milliseconds; never less than an earlier reading.
    fn now_ms(&self) -> f64;
}

/// The host's monotonic clock: `Instant` natively, `performance.now()` on wasm32.
#[derive(Clone, Copy, Debug, Default)]
pub struct MonotonicClock;

impl Clock for MonotonicClock {
    #[cfg(not(target_arch = "wasm32"))]
    fn now_ms(&self) -> f64 {
        use std::sync::OnceLock;
        use std::time::Instant;
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }

    #[cfg(target_arch = "wasm32")]
    fn now_ms(&self) -> f64 {
        crate::ffi::wasm_clock::performance_now()
    }
}

/// The phases of a quote that the deadline can stop, in the order they run
/// (`metadata.stoppedIn`; docs/solver-optimizer.md says what each keeps when stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// The path search at the full amount.
    Search,
    /// The path search at the probe amount (split candidates).
    ProbeSearch,
    /// The gas pricer's own path search (native token to tokenOut).
    GasPricing,
    /// Quoting each found path at the amount its search did not use.
    Evaluation,
    /// The convex bound: its graph, the dual's warm start and Newton steps (`convex/`).
    Bound,
    /// The split optimizer.
    Optimizer,
    /// Re-splitting the plan where its routes meet, and the ascents from there (`resplit.rs`).
    Resplit,
}

/// How often [`Deadline::expired`] reads its clock: at a check once `units` units of work
/// ([`count_work`]) were done since the last reading, or at the `checks`-th check since it, and
/// at a deadline's first check always. Between two readings lie at most `checks` intervals between
/// checks, and fewer than `units` units of work unless `checks` intervals come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadEvery {
    /// Units of work after which a check reads the clock.
    pub units: u64,
    /// Checks after which one reads the clock whatever the work.
    pub checks: u32,
}

/// On wasm32 a reading is a call out to the host (`performance.now()` through an import, about
/// 70 ns with the crossing): a 100-pool 1-hop split quote made 181 checks, 0.013 of its 0.058 ms.
/// There a check reads the clock every 8 units of work or 8 checks; natively a reading (`Instant`,
/// vDSO) costs about what the check does, and every check reads it.
#[cfg(target_arch = "wasm32")]
pub const READ_EVERY: Option<ReadEvery> = Some(ReadEvery { units: 8, checks: 8 });
/// On wasm32 a check reads the clock every 8 units of work or 8 checks; natively every check.
#[cfg(not(target_arch = "wasm32"))]
pub const READ_EVERY: Option<ReadEvery> = None;

/// The moment a quote must stop improving its plan, and where it was when it first noticed.
///
/// Once a check finds the deadline passed, every later check says so without reading the clock,
/// so a solve never resumes work it has given up.
pub struct Deadline<'c> {
    /// None: the deadline never passes (reference searches in tests).
    clock: Option<&'c dyn Clock>,
    at_ms: f64,
    /// How often a check reads the clock (None: at every check; [`READ_EVERY`]).
    read_every: Option<ReadEvery>,
    /// Units of work done ([`work_done`]) at the last reading, and the checks made since it;
    /// None before the first reading.
    last_read: Cell<Option<(u64, u32)>>,
    phase: Cell<Phase>,
    stopped_in: Cell<Option<Phase>>,
    /// The phase a share of the budget cut short while the deadline had not passed
    /// ([`Deadline::share`], [`Deadline::note_cut`]).
    cut_in: Cell<Option<Phase>>,
    /// The phase being timed and when it was entered (host clock), while the solve runs.
    timing: Cell<Option<(Phase, f64)>>,
    /// The phases left, each with the milliseconds spent in it, in the order they first ran.
    spent: RefCell<Vec<(Phase, f64)>>,
}

/// Milliseconds a solve spent in each phase it entered, in order (`metadata.phaseMs`, an object
/// keyed by phase). Read on the host's monotonic clock, whatever clock the deadline runs on.
#[derive(Clone, Debug, Default)]
pub struct PhaseMs(pub Vec<(Phase, f64)>);

impl PhaseMs {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for PhaseMs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(phase, ms)| (phase, ms)))
    }
}

impl<'c> Deadline<'c> {
    /// A deadline `budget_ms` milliseconds after `clock`'s time now (one reading).
    pub fn after_ms(budget_ms: u32, clock: &'c dyn Clock) -> Deadline<'c> {
        Deadline::after_wait(budget_ms, 0.0, clock)
    }

    /// A deadline `budget_ms` milliseconds after the call began, `waited_ms` before `clock`'s time
    /// now (one reading): a call that waited in a queue before it could start (the native addon's
    /// thread pool) has only the rest of its budget. A negative or NaN wait counts as none.
    pub fn after_wait(budget_ms: u32, waited_ms: f64, clock: &'c dyn Clock) -> Deadline<'c> {
        Deadline {
            clock: Some(clock),
            at_ms: clock.now_ms() - waited_ms.max(0.0) + f64::from(budget_ms),
            read_every: READ_EVERY,
            last_read: Cell::new(None),
            phase: Cell::new(Phase::Search),
            stopped_in: Cell::new(None),
            cut_in: Cell::new(None),
            timing: Cell::new(None),
            spent: RefCell::new(Vec::new()),
        }
    }

    /// A deadline for a share of the time left: `fraction` (0 to 1) of it from now, one reading of
    /// the clock, never later than this deadline (a deadline already passed gives one passed too).
    /// It times no phase and stops only the work it is given: the rest of the solve goes on
    /// against this deadline, and [`Deadline::note_cut`] records whether the share cut that work.
    /// Work checked against the share stops at or before this deadline, so its overshoot past
    /// this deadline is at most its overshoot past the share.
    pub fn share(&self, fraction: f64) -> Deadline<'c> {
        let Some(clock) = self.clock else { return Deadline::never() };
        let now = clock.now_ms();
        let left = (self.at_ms - now).max(0.0);
        Deadline {
            clock: Some(clock),
            at_ms: (now + fraction.clamp(0.0, 1.0) * left).min(self.at_ms),
            read_every: self.read_every,
            last_read: Cell::new(None),
            phase: Cell::new(self.phase.get()),
            stopped_in: Cell::new(self.stopped_in.get()),
            cut_in: Cell::new(None),
            timing: Cell::new(None),
            spent: RefCell::new(Vec::new()),
        }
    }

    /// Records that a share of this deadline ([`Deadline::share`]) cut the work of `phase` short
    /// while no check had found this deadline passed; the first such phase is kept
    /// ([`Deadline::cut_by_share`]).
    pub fn note_cut(&self, phase: Phase) {
        if self.cut_in.get().is_none() && self.stopped_in.get().is_none() {
            self.cut_in.set(Some(phase));
        }
    }

    /// The first phase a share of the budget cut short while the deadline had not passed.
    pub fn cut_by_share(&self) -> Option<Phase> {
        self.cut_in.get()
    }

    /// Where the budget stopped the solve (`metadata.stoppedIn`): the phase in which a check first
    /// found the deadline passed, else the first phase its share cut; None if neither did.
    pub fn stopped_or_cut_in(&self) -> Option<Phase> {
        self.stopped_in.get().or(self.cut_in.get())
    }

    /// A deadline that never passes (its phases are not timed).
    pub fn never() -> Deadline<'static> {
        Deadline {
            clock: None,
            at_ms: f64::INFINITY,
            read_every: None,
            last_read: Cell::new(None),
            phase: Cell::new(Phase::Search),
            stopped_in: Cell::new(None),
            cut_in: Cell::new(None),
            timing: Cell::new(None),
            spent: RefCell::new(Vec::new()),
        }
    }

    /// Records that the solve is now in `phase` (what [`Deadline::stopped_in`] reports).
    /// With a clock, it also times the phases: the one left ends here, `phase` starts.
    pub fn enter(&self, phase: Phase) {
        self.phase.set(phase);
        if self.clock.is_some() {
            let now = MonotonicClock.now_ms();
            self.leave(now);
            self.timing.set(Some((phase, now)));
        }
        #[cfg(test)]
        PHASES_ENTERED.with(|log| log.borrow_mut().push((phase, work_done())));
    }

    /// This deadline with its clock read as `read_every` says (None: at every check).
    pub fn reading_every(mut self, read_every: Option<ReadEvery>) -> Self {
        self.read_every = read_every;
        self
    }

    /// Whether the budget is spent: reads the clock (as often as [`ReadEvery`] says) until the
    /// first time it is, then stays true.
    pub fn expired(&self) -> bool {
        if self.stopped_in.get().is_some() {
            return true;
        }
        let Some(clock) = self.clock else { return false };
        if self.skips_reading() {
            return false;
        }
        if clock.now_ms() < self.at_ms {
            return false;
        }
        self.stopped_in.set(Some(self.phase.get()));
        true
    }

    /// Whether this check may go without reading the clock ([`ReadEvery`]); counts it if so.
    fn skips_reading(&self) -> bool {
        let Some(every) = self.read_every else { return false };
        let done = work_done();
        if let Some((units_then, checks)) = self.last_read.get() {
            let checks = checks.saturating_add(1);
            if done.saturating_sub(units_then) < every.units && checks < every.checks {
                self.last_read.set(Some((units_then, checks)));
                return true;
            }
        }
        self.last_read.set(Some((done, 0)));
        false
    }

    /// Ends the phase being timed at `now` (host clock); a phase entered again (the optimizer,
    /// resumed after the re-split) adds to its first entry.
    fn leave(&self, now: f64) {
        if let Some((phase, since)) = self.timing.take() {
            let ms = (now - since).max(0.0);
            let mut spent = self.spent.borrow_mut();
            match spent.iter_mut().find(|(p, _)| *p == phase) {
                Some((_, total)) => *total += ms,
                None => spent.push((phase, ms)),
            }
        }
    }

    /// The time spent in each phase so far, the current one ending now (empty without a clock).
    pub fn phase_ms(&self) -> PhaseMs {
        if self.clock.is_some() {
            self.leave(MonotonicClock.now_ms());
        }
        PhaseMs(self.spent.borrow().clone())
    }

    /// The phase in which a check first found the budget spent; None if none has.
    pub fn stopped_in(&self) -> Option<Phase> {
        self.stopped_in.get()
    }
}

/// A test clock that reads 0, 1, 2, ... ms: a budget of n ms passes at the n-th reading after the
/// deadline is set, whatever the machine's speed (it sees readings, not the work between them:
/// the budget tests use [`WorkClock`]).
#[cfg(test)]
#[derive(Default)]
pub struct SteppingClock(pub Cell<f64>);

#[cfg(test)]
impl Clock for SteppingClock {
    fn now_ms(&self) -> f64 {
        let now = self.0.get();
        self.0.set(now + 1.0);
        now
    }
}

/// Units of work done on this thread: every pool swap computed (`PoolState::amount_out` and
/// `apply`; a memo's hit computes none), every curve built or evaluated by the convex bound, and
/// dense linear algebra by its size ([`count_products`]). Counted in test builds (the budget
/// tests' [`WorkClock`] reads it) and on wasm32 (how often a check reads the clock,
/// [`READ_EVERY`]); a no-op otherwise.
#[inline(always)]
pub(crate) fn count_work() {
    count_units(1);
}

#[inline(always)]
fn count_units(units: u64) {
    #[cfg(any(test, target_arch = "wasm32"))]
    WORK_DONE.with(|done| done.set(done.get().saturating_add(units)));
    #[cfg(not(any(test, target_arch = "wasm32")))]
    let _ = units;
}

/// Multiply-adds of dense linear algebra per unit of work: about one constant-product swap's time
/// (55 ns, bench/README.md *One exact swap per family*; a Cholesky product takes 0.4-0.5 ns at
/// n ≥ 16 natively, a 51 × 51 factorisation about 9 µs).
pub(crate) const PRODUCTS_PER_UNIT: u64 = 128;

/// Counts `products` multiply-adds of a factorisation or a solve (`route/linear.rs`: the split
/// optimizer's model steps, the dual's Newton systems) as units of work: one, plus one per
/// [`PRODUCTS_PER_UNIT`]. Without it a loop of model steps with no route evaluated between them
/// was no work to the budget tests, and on wasm32 eight of them went by between two readings.
#[inline(always)]
pub(crate) fn count_products(products: u64) {
    count_units(1u64.saturating_add(products / PRODUCTS_PER_UNIT));
}

/// A stretch of work that runs to its end once begun (a model step of the split optimizer, a
/// Newton system of the dual: the deadline is checked between them, never inside): the budget
/// tests allow one past the deadline, measured as the largest on the thread ([`largest_stretch`]).
/// Free outside test builds.
#[must_use = "the stretch ends when this is dropped"]
pub(crate) struct Stretch {
    #[cfg(test)]
    from: u64,
}

impl Stretch {
    /// Begins a stretch; it ends when the value is dropped.
    #[inline(always)]
    pub(crate) fn begin() -> Stretch {
        Stretch {
            #[cfg(test)]
            from: work_done(),
        }
    }
}

#[cfg(test)]
impl Drop for Stretch {
    fn drop(&mut self) {
        let units = work_done().saturating_sub(self.from);
        LARGEST_STRETCH.with(|largest| largest.set(largest.get().max(units)));
    }
}

#[cfg(test)]
thread_local! {
    static LARGEST_STRETCH: Cell<u64> = const { Cell::new(0) };
}

/// The units of work of the largest [`Stretch`] on this thread since the last call; clears it.
#[cfg(test)]
pub fn largest_stretch() -> u64 {
    LARGEST_STRETCH.with(|largest| largest.replace(0))
}

#[cfg(any(test, target_arch = "wasm32"))]
thread_local! {
    static WORK_DONE: Cell<u64> = const { Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    static PHASES_ENTERED: std::cell::RefCell<Vec<(Phase, u64)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The phases entered on this thread since the last call, each with the units of work done
/// before it ([`work_done`]); clears the log.
#[cfg(test)]
pub fn phases_entered() -> Vec<(Phase, u64)> {
    PHASES_ENTERED.with(|log| std::mem::take(&mut *log.borrow_mut()))
}

/// The units of work done on this thread so far ([`count_work`]); 0 where they are not counted.
pub fn work_done() -> u64 {
    #[cfg(any(test, target_arch = "wasm32"))]
    return WORK_DONE.with(Cell::get);
    #[cfg(not(any(test, target_arch = "wasm32")))]
    0
}

/// A test clock on which a millisecond is `units_per_ms` units of work ([`count_work`]): a budget
/// of n ms passes at the first deadline check after n × `units_per_ms` units of work, whatever the machine's speed, and work done
/// between two checks (which a clock moved per reading could not see) shows as overshoot.
#[cfg(test)]
pub struct WorkClock {
    /// Units of work per millisecond.
    pub units_per_ms: f64,
}

#[cfg(test)]
impl Clock for WorkClock {
    fn now_ms(&self) -> f64 {
        work_done() as f64 / self.units_per_ms
    }
}

#[cfg(test)]
#[path = "clock_tests.rs"]
mod tests;
