import type { Static } from 'typebox'
import type { Solver } from '../../bindings/types.ts'
import type { MarketState } from '../market/createMarketState.ts'
import type { ReadyResponse } from './schemas/ready.ts'

export type ReadinessReportParameters = {
  market: Pick<MarketState, 'freshness'>
  solver: Pick<Solver, 'status'>
  maxSnapshotAgeMs: number
}

/**
 * What `GET /ready` answers: ready when the market snapshot is fresh (quotes would not be refused
 * as stale) and the solver answers (not restarting a trapped WASM instance).
 *
 * @example
 * const report = readinessReport({ market, solver, maxSnapshotAgeMs: 10_000 })
 * report.ready // true
 */
export function readinessReport({ market, solver, maxSnapshotAgeMs }: ReadinessReportParameters): Static<typeof ReadyResponse> {
  const { blockNumber, ageMs, stale } = market.freshness()
  const { backend, state, restarts } = solver.status()
  const fresh = !stale && blockNumber !== undefined
  return {
    ready: fresh && state === 'ready',
    market: {
      blockNumber: blockNumber === undefined ? null : Number(blockNumber),
      ageMs: Number.isFinite(ageMs) ? Math.max(0, Math.round(ageMs)) : null,
      maxAgeMs: maxSnapshotAgeMs,
      fresh,
    },
    solver: { backend, state, restarts },
  }
}
