import type { SolverQuoteRequest } from '../bindings/types.ts'

/**
 * `request` asking `n` wei more: a trade not quoted before on the market, so the solver's
 * per-trade memo of the convex bound (solver-rs/src/route/bound_memos.rs) does not answer it and a
 * bench times the whole quote, as a trade quoted once costs.
 *
 * @example
 * freshTrade({ ...request, amountIn: '1000' }, 3).amountIn // '1003'
 */
export function freshTrade(request: SolverQuoteRequest, n: number): SolverQuoteRequest {
  return { ...request, amountIn: (BigInt(request.amountIn) + BigInt(n)).toString() }
}
