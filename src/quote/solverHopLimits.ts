// The solver's path-depth limits, mirrored for the service: it clamps `maxHops` before calling the
// solver (any JSON integer >= 1 is a valid request, 1e300 included) and reports the depth it
// searched. solverHopLimits.test.ts reads the Rust constants, so the two cannot drift apart.

/** The deepest search the solver runs (`MAX_HOPS`, solver-rs/src/route/request.rs). */
export const SOLVER_MAX_HOPS = 4
/** The depth searched when the request names none (`DEFAULT_MAX_HOPS`, solver-rs/src/route/quote.rs). */
export const SOLVER_DEFAULT_MAX_HOPS = 3
