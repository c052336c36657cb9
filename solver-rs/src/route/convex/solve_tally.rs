//! Counts of the dual solve's steps, for the diagnosis of where its time goes
//! (`solve_tally_diagnosis.rs`): test builds only. Elsewhere [`tally`] is an empty function the
//! compiler removes, so the solve pays nothing for it.

/// One step of the dual's solve (`solve.rs`, `dual.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    /// A [`super::solve::minimise`] (the warm start and Newton from it).
    Minimise,
    /// A warm-start sweep over the layers.
    Sweep,
    /// A one-dimensional search for a group's price (`settle`).
    Settle,
    /// A copy's excess evaluated (each a pass over the venues it touches).
    Excess,
    /// A pooled venue's joint term (`dual::pooled_term`: the budget's own solve).
    PooledTerm,
    /// g evaluated (a pass over every venue).
    Evaluate,
    /// A Newton iteration.
    Newton,
    /// A step length tried by Newton's line search (an evaluation of g).
    Halving,
    /// Newton's damping raised (its system solved again).
    Damping,
    /// A linear budget's corner tried as a step length (`solve_corner_steps.rs`).
    CornerLength,
    /// A pass of the corners' minimisations after Newton.
    CornersPass,
    /// The two-phase solve fell back to the warm start on the joint graph.
    Fallback,
}

/// Every [`Step`], in the order [`Counts`] holds them.
#[cfg(test)]
pub(super) const STEPS: [Step; 12] = [
    Step::Minimise,
    Step::Sweep,
    Step::Settle,
    Step::Excess,
    Step::PooledTerm,
    Step::Evaluate,
    Step::Newton,
    Step::Halving,
    Step::Damping,
    Step::CornerLength,
    Step::CornersPass,
    Step::Fallback,
];

/// The steps counted on this thread since the last [`take`], in [`STEPS`]' order.
#[cfg(test)]
pub(super) type Counts = [u64; STEPS.len()];

#[cfg(test)]
thread_local! {
    static COUNTS: std::cell::Cell<Counts> = const { std::cell::Cell::new([0; STEPS.len()]) };
}

/// Counts one `step` (test builds; elsewhere nothing).
#[cfg(test)]
pub(super) fn tally(step: Step) {
    COUNTS.with(|c| {
        let mut counts = c.get();
        counts[step as usize] += 1;
        c.set(counts);
    });
}

/// Counts one `step` (test builds; elsewhere nothing).
#[cfg(not(test))]
#[inline(always)]
pub(super) fn tally(_step: Step) {}

/// The counts since the last call, reset.
#[cfg(test)]
pub(super) fn take() -> Counts {
    COUNTS.with(|c| c.replace([0; STEPS.len()]))
}
