import type { SolverQuoteRequest } from '../bindings/types.ts'

/**
 * `request` asking `n` wei more: a trade not quoted before on the market, so the solver's
 * per-trade memo of the convex bound (solver-rs/src/route/bound_memos.rs) does not answer it. The
 * pair's convex graph, which does not depend on the amount, is lent from the market snapshot's
 * memo after its first quote (solver-rs/src/route/graph_memos.rs): a bench times a new amount of a
 * pair quoted before on the block.
 *
 * @example
 * freshTrade({ ...request, amountIn: '1000' }, 3).amountIn // '1003'
 */
export function freshTrade(request: SolverQuoteRequest, n: number): SolverQuoteRequest {
  return { ...request, amountIn: (BigInt(request.amountIn) + BigInt(n)).toString() }
}
