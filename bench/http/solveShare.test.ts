import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createServiceMetrics } from '../../src/http/metrics/createServiceMetrics.ts'
import { solveShare } from './solveShare.ts'

// The service's own metrics (no chain): what a run adds between two scrapes, per call.
test('solveShare: the solver phases, the solve and the overhead per call, between two scrapes', async () => {
  const metrics = createServiceMetrics({
    market: () => ({ blockNumber: 1n, ageMs: 0, poolsInSolver: 0, poolsFollowed: 0, poolsLeftOut: 0, reorgs: 0 }),
  })
  const quote = { route: '/quote', method: 'POST', status: 200 }
  // Before the run: one quote, not counted.
  metrics.solverPhases({ search: 50 })
  metrics.solve(0.06, 'ok')
  metrics.request(quote, 0.07)
  const before = await metrics.registry.metrics()
  // The run: two quotes (solver 3 and 5 ms, solves 4 and 8 ms, calls 5 and 11 ms); a failed solve,
  // a 503 and another route's call, none counted.
  metrics.solverPhases({ search: 1, bound: 2 })
  metrics.solverPhases({ search: 1, bound: 3.5, optimizer: 0.5 })
  metrics.solve(0.004, 'ok')
  metrics.solve(0.008, 'ok')
  metrics.solve(0.5, 'error')
  metrics.request(quote, 0.005)
  metrics.request(quote, 0.011)
  metrics.request({ ...quote, status: 503 }, 0.001)
  metrics.request({ route: '/submit', method: 'POST', status: 200 }, 0.25)
  const after = await metrics.registry.metrics()
  assert.deepEqual(solveShare({ before, after, route: '/quote' }), {
    solver_ms: 4,
    solve_ms: 6,
    server_ms: 8,
    overhead_ms: 2,
  })
  // A route without solves: its calls are all overhead. Two instances' texts, joined, are summed.
  assert.deepEqual(solveShare({ before: `${before}\n${before}`, after: `${after}\n${after}`, route: '/submit' }), {
    solver_ms: 4,
    solve_ms: 6,
    server_ms: 250,
    overhead_ms: 250,
  })
  // No call in the run: nothing to divide.
  assert.deepEqual(solveShare({ before: after, after, route: '/quote' }), {
    solver_ms: null,
    solve_ms: null,
    server_ms: null,
    overhead_ms: null,
  })
})
