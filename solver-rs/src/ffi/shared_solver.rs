//! The solver as the native addon shares it between libuv threads.

use crate::{Solver, SolverError};
use std::sync::RwLock;

/// Updates take the lock for their whole call; quotes, simulations and water-filling take it only
/// to copy a view of the current snapshot (a few reference counts, [`Solver`]) and then run with
/// no lock held. So an update never waits for a quote (a 10 s budget included), a quote never
/// waits for more than an update's own time, and a quote sees one block whole. A poisoned lock
/// (a panic in an update, caught by `guarded`) is recovered as it is: updates swap a finished
/// snapshot in, so the solver behind it is the last complete update's.
pub(crate) struct SharedSolver(RwLock<Solver>);

impl SharedSolver {
    pub(crate) fn new(solver: Solver) -> SharedSolver {
        SharedSolver(RwLock::new(solver))
    }

    /// Runs an update with the lock held.
    pub(crate) fn update<T>(
        &self,
        call: impl FnOnce(&mut Solver) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        call(&mut self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// A view of the current snapshot, the lock released before it is returned.
    pub(crate) fn view(&self) -> Solver {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

#[cfg(test)]
#[path = "shared_solver_tests.rs"]
mod tests;
