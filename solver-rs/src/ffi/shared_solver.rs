//! The solver as the native addon shares it between libuv threads.

use crate::{Solver, SolverError};
use std::sync::{Mutex, RwLock};

/// The current snapshot behind a lock held only to copy or replace a view of it (a few reference
/// counts, [`Solver`]): quotes, simulations and water-filling copy a view and run with no lock
/// held; an update runs on a view of its own, with only the other updates waiting (they take
/// turns on `updating`), and then replaces the current one. So an update never waits for a quote
/// (a 10 s budget included), a quote never waits for an update's work (only for the replacement),
/// and a quote sees one block whole. An update that fails or panics (caught by `guarded`) replaces
/// nothing: the last complete update's snapshot keeps serving. A poisoned lock is recovered as it
/// is, since no panic can happen while one is held with a snapshot half made.
pub(crate) struct SharedSolver {
    current: RwLock<Solver>,
    updating: Mutex<()>,
}

impl SharedSolver {
    pub(crate) fn new(solver: Solver) -> SharedSolver {
        SharedSolver { current: RwLock::new(solver), updating: Mutex::new(()) }
    }

    /// Runs an update on a view of the current snapshot and makes it current once it succeeded.
    pub(crate) fn update<T>(
        &self,
        call: impl FnOnce(&mut Solver) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        let _turn = self.updating.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut next = self.view();
        let result = call(&mut next)?;
        *self.current.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = next;
        Ok(result)
    }

    /// A view of the current snapshot, the lock released before it is returned.
    pub(crate) fn view(&self) -> Solver {
        self.current.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

#[cfg(test)]
#[path = "shared_solver_tests.rs"]
mod tests;
