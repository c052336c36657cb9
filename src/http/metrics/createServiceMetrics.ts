import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { DiscoveryStatus } from '../../market/MarketState.ts'
import type { TokenScreenStatus } from '../../market/tokens/createTokenScreen.ts'
import { leftOutCategory } from './leftOutCategory.ts'

export type ServiceMetrics = {
  registry: Registry
  /** One answered HTTP request: its route (the pattern, never the raw URL), method, status and duration. */
  request: (labels: { route: string; method: string; status: number }, seconds: number) => void
  /** One solve's duration (the quote service's, solver included). */
  solve: (seconds: number, outcome: 'ok' | 'error') => void
  /** One solver answer's time per phase (the plan's `metadata.phaseMs`, milliseconds). */
  solverPhases: (phaseMs: Partial<Record<string, number>>) => void
  rpcError: (labels: { node: string; kind: string; method: string }) => void
  /** One call a node was asked, with its time. */
  rpcCall: (labels: { node: string; method: string }, seconds: number) => void
  /** A Redis connection error or failed command (`kind`: error, commandFailed). */
  redisError: (kind: string) => void
  rateLimited: () => void
  admissionRefused: (reason: string) => void
}

export type CreateServiceMetricsParameters = {
  /** Read at each scrape: the market's block, its age, and its pools. */
  market: () => {
    blockNumber: bigint | undefined
    ageMs: number
    poolsInSolver: number
    poolsFollowed: number
    poolsLeftOut: number
    reorgs: number
  }
  /** Read at each scrape: the reasons of the pools left out (counted by category, never the text). */
  leftOutReasons?: () => string[]
  /** Read at each scrape: solves in flight and the event loop's delay. */
  load?: () => { solvesInFlight: number; eventLoopDelayMs: number }
  /** Read at each scrape: the cold start's progress (`market.discovery()`). */
  discovery?: () => DiscoveryStatus
  /** Read at each scrape: token screening's counts (`market.tokenScreening()`; undefined: screening off). */
  tokenScreening?: () => TokenScreenStatus | undefined
}

/**
 * The service's Prometheus metrics (prom-client, one registry per service, served at `/metrics`):
 * request counts and latency histograms by route and status, solve time and the solver's time per
 * phase, the market's block, age,
 * pools and reorgs, RPC errors by node index and kind, rate-limit and admission rejections, solves
 * in flight and the event loop's delay. Labels never carry a URL, a key or an address.
 *
 * @example
 * const metrics = createServiceMetrics({ market: () => ({ ... }) })
 * reply.type('text/plain; version=0.0.4').send(await metrics.registry.metrics())
 * // the Prometheus text: swap_http_requests_total{route,method,status} …, swap_solve_duration_seconds …
 */
export function createServiceMetrics({
  market,
  load,
  leftOutReasons,
  discovery,
  tokenScreening,
}: CreateServiceMetricsParameters): ServiceMetrics {
  const registry = new Registry()
  const buckets = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
  const requests = new Counter({
    name: 'swap_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'swap_http_request_duration_seconds',
    help: 'HTTP request latency, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'],
    buckets,
    registers: [registry],
  })
  const solves = new Histogram({
    name: 'swap_solve_duration_seconds',
    help: 'Quote solves (quote service and solver), by outcome',
    labelNames: ['outcome'],
    buckets,
    registers: [registry],
  })
  // A phase of a 1,000-pool quote takes tens of microseconds: the buckets start there.
  const phases = new Histogram({
    name: 'swap_solver_phase_duration_seconds',
    help: "The solver's time per phase of a quote (search, probeSearch, gasPricing, evaluation, bound, optimizer, resplit)",
    labelNames: ['phase'],
    buckets: [0.00002, 0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  const rpcErrors = new Counter({
    name: 'swap_rpc_errors_total',
    help: 'Failed RPC calls, by node (its index in RPC_URL), kind (node: no answer; answer: an error answer; throttled: a 429 or rate-limit answer; circuitOpen: skipped) and method',
    labelNames: ['node', 'kind', 'method'],
    registers: [registry],
  })
  const rpcCalls = new Counter({
    name: 'swap_rpc_calls_total',
    help: 'RPC calls a node was asked, by node (its index in RPC_URL) and method',
    labelNames: ['node', 'method'],
    registers: [registry],
  })
  const rpcLatency = new Histogram({
    name: 'swap_rpc_call_duration_seconds',
    help: 'RPC call latency, by node (its index in RPC_URL) and method',
    labelNames: ['node', 'method'],
    buckets,
    registers: [registry],
  })
  const redisErrors = new Counter({
    name: 'swap_redis_errors_total',
    help: 'Redis connection errors and failed commands, by kind (error, commandFailed)',
    labelNames: ['kind'],
    registers: [registry],
  })
  const limited = new Counter({
    name: 'swap_rate_limit_rejections_total',
    help: 'Calls refused with 429 by the sliding-window limiter',
    registers: [registry],
  })
  const admission = new Counter({
    name: 'swap_admission_rejections_total',
    help: 'Solves refused with 503 by admission control, by reason',
    labelNames: ['reason'],
    registers: [registry],
  })
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read())
      },
    })
  gauge('swap_market_block_number', 'The block the market snapshot is at (0 before the cold start)', () =>
    Number(market().blockNumber ?? 0n),
  )
  gauge('swap_market_age_seconds', 'Seconds since the snapshot was last confirmed at the chain head (-1 before the cold start)', () => {
    const { ageMs } = market()
    return Number.isFinite(ageMs) ? ageMs / 1000 : -1
  })
  gauge('swap_market_pools_in_solver', 'Pools the solver prices', () => market().poolsInSolver)
  gauge(
    'swap_market_pools_followed',
    'Pools whose events the market follows (in the solver or waiting for liquidity)',
    () => market().poolsFollowed,
  )
  gauge('swap_market_pools_left_out', 'Known pools left out of the solver, with a reason', () => market().poolsLeftOut)
  gauge('swap_market_reorgs', 'Reorgs handled since the start', () => market().reorgs)
  if (leftOutReasons) {
    new Gauge({
      name: 'swap_market_pools_left_out_by_reason',
      help: 'Known pools left out of the solver, by category of reason (deny_list, token_behaviour, hooks, solver_refused, venue_closed, liquidity, unreadable, other)',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset()
        const counts = new Map<string, number>()
        for (const reason of leftOutReasons()) counts.set(leftOutCategory(reason), (counts.get(leftOutCategory(reason)) ?? 0) + 1)
        for (const [reason, n] of counts) this.set({ reason }, n)
      },
    })
  }
  if (discovery) {
    gauge('swap_discovery_blocks_scanned', "Blocks of the deployments' histories scanned by this cold start", () =>
      Number(discovery().scannedBlocks),
    )
    gauge('swap_discovery_blocks_total', 'Blocks this cold start has to scan (what an earlier start stored is not counted)', () =>
      Number(discovery().totalBlocks),
    )
    gauge('swap_discovery_pools_found', 'Pools discovered so far, stored by earlier starts included', () => discovery().pools)
    gauge('swap_discovery_ranges_fetched', 'eth_getLogs ranges fetched by this cold start', () => discovery().ranges)
    gauge('swap_discovery_range_blocks', "Discovery's range size now (it adapts to the node's refusals)", () =>
      Number(discovery().rangeBlocks),
    )
    gauge('swap_discovery_eta_seconds', 'Until the scan ends, at its pace so far (-1: not known or not scanning)', () => {
      const { etaMs } = discovery()
      return etaMs === undefined ? -1 : etaMs / 1000
    })
    gauge('swap_discovery_done', '1 once the cold start has read every pool, else 0', () => (discovery().phase === 'done' ? 1 : 0))
  }
  if (tokenScreening) {
    new Gauge({
      name: 'swap_market_tokens',
      help: 'Tokens by screening outcome: plain, partly_checked (plain without the full rebasing window), left_out, unjudged (the node refused the probe: routed, asked again)',
      labelNames: ['outcome'],
      registers: [registry],
      collect() {
        this.reset()
        const status = tokenScreening()
        if (!status) return
        this.set({ outcome: 'plain' }, status.judged - status.leftOut - status.partlyChecked)
        this.set({ outcome: 'partly_checked' }, status.partlyChecked)
        this.set({ outcome: 'left_out' }, status.leftOut)
        this.set({ outcome: 'unjudged' }, status.unjudged)
      },
    })
  }
  if (load) {
    gauge('swap_solves_in_flight', 'Solves running now', () => load().solvesInFlight)
    gauge('swap_event_loop_delay_seconds', 'Event-loop delay, p99 of the last window', () => load().eventLoopDelayMs / 1000)
  }
  return {
    registry,
    request: (labels, seconds) => {
      const l = { route: labels.route, method: labels.method, status: String(labels.status) }
      requests.inc(l)
      latency.observe(l, seconds)
    },
    solve: (seconds, outcome) => solves.observe({ outcome }, seconds),
    solverPhases: (phaseMs) => {
      for (const [phase, ms] of Object.entries(phaseMs)) if (ms !== undefined) phases.observe({ phase }, ms / 1000)
    },
    rpcError: (labels) => rpcErrors.inc(labels),
    rpcCall: (labels, seconds) => {
      rpcCalls.inc(labels)
      rpcLatency.observe(labels, seconds)
    },
    redisError: (kind) => redisErrors.inc({ kind }),
    rateLimited: () => limited.inc(),
    admissionRefused: (reason) => admission.inc({ reason }),
  }
}
