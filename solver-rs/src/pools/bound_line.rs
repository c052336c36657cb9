//! A bound of the form min(slack + rate·input, cap) on what a run of swaps in one direction pays
//! in total, for families whose marginal rate only falls as they are sold into and whose output
//! is capped by a reserve: each family proves its rate, slack and cap beside its model (DODO:
//! `dodo/bound.rs`, E-CLP: `gyro_eclp/bound.rs`). The convex search takes it as two linear pieces.

use crate::route::convex::curve::MAX_SWAPS_PER_POOL;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundLine {
    /// Raw units out per raw unit in, margin included.
    pub rate: f64,
    /// Raw units out the roundings of all a plan's swaps on the pool may add.
    pub slack: f64,
    /// The output side's reserve.
    pub cap: f64,
}

impl BoundLine {
    /// The line of a family whose swaps may each pay `slack_per_swap` units beyond the real curve;
    /// None when nothing can be paid.
    pub fn new(rate: f64, slack_per_swap: f64, cap: f64) -> Option<BoundLine> {
        let slack = slack_per_swap * f64::from(MAX_SWAPS_PER_POOL);
        (rate > 0.0 && rate.is_finite() && cap > 0.0).then_some(BoundLine { rate, slack, cap })
    }

    /// The bound for `input` raw units in total (a swap of nothing pays nothing; any other is at
    /// least one raw unit).
    pub fn value(&self, input: f64) -> f64 {
        if input <= 0.0 {
            return 0.0;
        }
        (self.slack + self.rate * input.max(1.0)).min(self.cap)
    }

    /// The same bound as linear pieces (width, rate), rates falling: the first raw unit carries
    /// the slack.
    pub fn pieces(&self) -> Vec<(f64, f64)> {
        let first = (self.rate + self.slack).min(self.cap);
        let rest = (self.cap - first) / self.rate;
        let mut pieces = vec![(1.0, first)];
        if rest > 0.0 {
            pieces.push((rest, self.rate));
        }
        pieces
    }
}
