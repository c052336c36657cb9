/**
 * Bench support: where a service's time per answered call went over one run, from two scrapes of its
 * Prometheus text (`GET /metrics`, or the in-process registry's `metrics()`), before and after.
 *
 * Means over the run (the histograms' sums over their counts), milliseconds per call:
 * - `solver_ms`: the solver's own time per quote, the sum of its phases (`metadata.phaseMs`:
 *   search, probeSearch, gasPricing, evaluation, bound, optimizer, resplit);
 * - `solve_ms`: the quote service's solve per quote (`swap_solve_duration_seconds`): the solver's
 *   phases, plus its wait for a solver thread, the prop AMMs asked again at the node's latest
 *   block, the gas estimate and the plan's assembly;
 * - `server_ms`: the route's answered calls as the server timed them (`swap_http_request_duration_seconds`);
 * - `overhead_ms`: `server_ms − solve_ms` for `/quote` (HTTP, validation, authentication, limiter,
 *   quote store, JSON), `server_ms` for other routes (no solve).
 * A load generator's latency above `server_ms` is the time before the server saw the call (the
 * socket, the event loop busy with other work) and after it answered.
 *
 * @example
 * const before = await registry.metrics()
 * // … a run of POST /quote …
 * solveShare({ before, after: await registry.metrics(), route: '/quote' })
 * // → { solver_ms: 4.1, solve_ms: 9.8, server_ms: 10.6, overhead_ms: 0.8 }
 */
export function solveShare({ before, after, route }: { before: string; after: string; route: string }): SolveShare {
  const was = readSums(before, route)
  const now = readSums(after, route)
  const solves = now.solves - was.solves
  const calls = now.calls - was.calls
  const perCall = (seconds: number, count: number) => (count > 0 ? round((seconds * 1000) / count) : null)
  const solver_ms = perCall(now.phaseSeconds - was.phaseSeconds, solves)
  const solve_ms = perCall(now.solveSeconds - was.solveSeconds, solves)
  const server_ms = perCall(now.callSeconds - was.callSeconds, calls)
  const overhead_ms = server_ms === null ? null : round(server_ms - (route === '/quote' ? (solve_ms ?? 0) : 0))
  return { solver_ms, solve_ms, server_ms, overhead_ms }
}

export type SolveShare = {
  solver_ms: number | null
  solve_ms: number | null
  server_ms: number | null
  overhead_ms: number | null
}

type Sums = { phaseSeconds: number; solveSeconds: number; solves: number; callSeconds: number; calls: number }

/** The sums and counts `solveShare` reads: every phase's, the successful solves', the route's 2xx calls. */
export function readSums(text: string, route: string): Sums {
  const sums: Sums = { phaseSeconds: 0, solveSeconds: 0, solves: 0, callSeconds: 0, calls: 0 }
  for (const line of text.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) continue
    const [, name, labelText = '', value] = match
    const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]))
    const number = Number(value)
    if (name === 'swap_solver_phase_duration_seconds_sum') sums.phaseSeconds += number
    else if (name === 'swap_solve_duration_seconds_sum' && labels.outcome === 'ok') sums.solveSeconds += number
    else if (name === 'swap_solve_duration_seconds_count' && labels.outcome === 'ok') sums.solves += number
    else if (labels.route === route && labels.status?.startsWith('2')) {
      if (name === 'swap_http_request_duration_seconds_sum') sums.callSeconds += number
      else if (name === 'swap_http_request_duration_seconds_count') sums.calls += number
    }
  }
  return sums
}

const round = (ms: number) => Math.round(ms * 100) / 100
