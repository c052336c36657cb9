import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, startHttpTestStack } from './startHttpTestStack.ts'

// The solver's time per phase (its plan's `metadata.phaseMs`) on `/metrics` (docs/scaling.md,
// "Observability"): the running service (embedded chain, native solver), quotes through HTTP on a
// socket, the metrics read from their own port.

let stack: HttpTestStack
let metricsUrl: string

beforeAll(async () => {
  stack = await startHttpTestStack()
  await stack.service.fastify.listen({ host: '127.0.0.1', port: 0 })
  metricsUrl = await stack.service.metricsServer.listen({ host: '127.0.0.1', port: 0 })
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

/** The samples of `name` in the Prometheus text, by their labels as written. */
async function samples(name: string): Promise<Map<string, number>> {
  const res = await fetch(metricsUrl)
  assert.equal(res.status, 200)
  const found = new Map<string, number>()
  for (const line of (await res.text()).split('\n')) {
    const match = line.match(/^(\w+)(\{[^}]*\})? (\S+)$/)
    if (match?.[1] === name) found.set(match[2] ?? '', Number(match[3]))
  }
  return found
}

test("every quote's solver phases land in swap_solver_phase_duration_seconds, by phase, within the solve's time", async () => {
  const before = await samples('swap_solver_phase_duration_seconds_count')
  const { WETH, USDC } = stack.service.devnet!.market.tokens
  const quotes = 3
  for (let i = 0; i < quotes; i++) {
    // A split quote deep enough to run every phase (a different amount each time: no cached answer).
    const amountIn = `${50 + i}000000000000000000`
    const body = { chainId: 8453, tokenIn: WETH.address, tokenOut: USDC.address, amountIn, slippageBps: 50 }
    const res = await callApp(stack.service.fastify, 'socket', { url: '/quote', key: KEY_A, body })
    assert.equal(res.status, 200, res.text)
  }
  const counts = await samples('swap_solver_phase_duration_seconds_count')
  const sums = await samples('swap_solver_phase_duration_seconds_sum')
  // The phases every split quote runs, each observed once per quote.
  for (const phase of ['search', 'probeSearch', 'gasPricing', 'evaluation', 'bound', 'optimizer']) {
    const labels = `{phase="${phase}"}`
    assert.equal((counts.get(labels) ?? 0) - (before.get(labels) ?? 0), quotes, `${phase}: ${JSON.stringify([...counts])}`)
    assert.ok((sums.get(labels) ?? 0) > 0, `${phase} took some time`)
  }
  for (const labels of counts.keys()) {
    assert.match(labels, /^\{phase="(search|probeSearch|gasPricing|evaluation|bound|optimizer|resplit)"\}$/)
  }
  // The phases run inside the solves: their summed time is at most the solves' (the quote service's time, solver included).
  const phaseSeconds = [...sums.values()].reduce((a, b) => a + b, 0)
  const solveSeconds = (await samples('swap_solve_duration_seconds_sum')).get('{outcome="ok"}') ?? 0
  assert.ok(phaseSeconds > 0 && phaseSeconds <= solveSeconds, `phases ${phaseSeconds} s, solves ${solveSeconds} s`)
  // A histogram: buckets down to 20 µs, where a small market's phases fall.
  const buckets = await samples('swap_solver_phase_duration_seconds_bucket')
  assert.ok(buckets.has('{le="0.00002",phase="search"}'), [...buckets.keys()].slice(0, 5).join(' '))
})
