// The solver's default time budget, mirrored for the service: a quote's budget runs from when the
// service receives it, so the service must know it when the request names none.
// solverTimeBudget.test.ts reads the Rust constant, so the two cannot drift apart.

/** The budget of a quote without `timeBudgetMs` when the solver is configured with none (`DEFAULT_TIME_BUDGET_MS`, solver-rs/src/solver.rs). */
export const SOLVER_DEFAULT_TIME_BUDGET_MS = 50
