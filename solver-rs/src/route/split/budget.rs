//! The optimizer's time: the quote's deadline, and, when a re-split follows, a share of it that
//! ends the optimizer early while its best allocation is far enough below the bound for the
//! re-split to run (docs/solver-optimizer.md, *The optimizer's share of the budget*).

use crate::math::U256;
use crate::route::clock::{Deadline, Phase};
use std::cell::Cell;

/// What the optimizer checks before each route of each evaluation (and each probe swap): past
/// it, the evaluation under way is dropped and the best allocation found so far is kept.
pub struct Budget<'a> {
    deadline: &'a Deadline<'a>,
    /// The share ([`Deadline::share`]), and the gross output below which it applies.
    share: Option<(Deadline<'a>, U256)>,
    /// The largest gross output of an allocation evaluated so far.
    best: Cell<U256>,
    /// Whether the share has cut the optimizer (then every later check says so).
    cut: Cell<bool>,
}

impl<'a> Budget<'a> {
    /// The whole of `deadline`.
    pub fn whole(deadline: &'a Deadline<'a>) -> Budget<'a> {
        Budget { deadline, share: None, best: Cell::new(U256::ZERO), cut: Cell::new(false) }
    }

    /// `deadline`, and `share` of it (made by [`Deadline::share`], so never later), which stops
    /// the optimizer once it has passed while no allocation evaluated so far grosses
    /// `short_below` (the re-split runs only below it).
    pub fn shared(
        deadline: &'a Deadline<'a>,
        share: Deadline<'a>,
        short_below: U256,
    ) -> Budget<'a> {
        Budget { share: Some((share, short_below)), ..Budget::whole(deadline) }
    }

    /// Whether the optimizer must stop: the deadline has passed, or the share has while the best
    /// allocation so far is short (both checks stay true once true). One reading of the clock
    /// while the share has not passed: it is never later than the deadline, so neither has that.
    pub fn expired(&self) -> bool {
        if self.cut.get() {
            return true;
        }
        if let Some((share, short_below)) = &self.share {
            if !share.expired() {
                return false;
            }
            if self.best.get() < *short_below {
                // Reached together, the deadline names the phase.
                let passed = self.deadline.expired();
                self.cut.set(!passed);
                return true;
            }
        }
        self.deadline.expired()
    }

    /// The phase the deadline first stopped, else the optimizer's if its share cut it; None if
    /// neither did.
    pub fn stopped_in(&self) -> Option<Phase> {
        self.deadline.stopped_in().or(self.cut_in())
    }

    /// The optimizer's phase if the share cut it.
    pub fn cut_in(&self) -> Option<Phase> {
        self.cut.get().then_some(Phase::Optimizer)
    }

    /// Records the gross output of an allocation just evaluated.
    pub(super) fn saw(&self, gross: U256) {
        if gross > self.best.get() {
            self.best.set(gross);
        }
    }
}

#[cfg(test)]
#[path = "budget_tests.rs"]
mod tests;
