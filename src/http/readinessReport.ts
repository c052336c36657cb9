import type { Static } from 'typebox'
import type { Solver } from '../../bindings/types.ts'
import type { NotCoveredVenue } from '../chains/ChainConfig.ts'
import type { RpcTransport } from '../chains/rpc/createRpcTransport.ts'
import type { SharedRedis } from '../limits/redis/connectRedis.ts'
import type { MarketState } from '../market/createMarketState.ts'
import type { ReadyResponse } from './schemas/ready.ts'

export type ReadinessReportParameters = {
  /** `discovery` absent: not reported (`discovery: null`). */
  market: Pick<MarketState, 'freshness'> & Partial<Pick<MarketState, 'discovery'>>
  solver: Pick<Solver, 'status'>
  maxSnapshotAgeMs: number
  /** The shared state's connection (`REDIS_URL`); absent: the in-memory stores. */
  redis?: Pick<SharedRedis, 'isReady'>
  /** The RPC nodes and their circuits (`RPC_URL`); absent: the embedded chain. */
  rpc?: Pick<RpcTransport, 'nodes'>
  /** Venues of the chain the market does not follow (`ChainConfig.notCovered`); they do not make it unready. */
  notCovered?: readonly NotCoveredVenue[]
}

type NotReadyReason = Static<typeof ReadyResponse>['notReady'][number]

/**
 * What `GET /ready` answers: ready when the market snapshot is fresh (quotes would not be refused
 * as stale), the solver answers (not restarting a trapped WASM instance), Redis is connected when
 * `REDIS_URL` is set (else every authenticated call is a 503), and at least one RPC node's circuit
 * is not open (else the market cannot follow the chain and goes stale within `maxSnapshotAgeMs`:
 * the load balancer moves traffic before that). `notReady` lists every reason; nodes are named by
 * their index in `RPC_URL`, never their URL (the probe is public). While the cold start runs,
 * `coldStart` is among the reasons and `discovery` says how far it is (blocks scanned of the total,
 * pools found, an ETA).
 *
 * @example
 * const report = readinessReport({ market, solver, maxSnapshotAgeMs: 10_000, redis, rpc })
 * report.ready // true
 * report.notReady // []
 */
export function readinessReport({
  market,
  solver,
  maxSnapshotAgeMs,
  redis,
  rpc,
  notCovered = [],
}: ReadinessReportParameters): Static<typeof ReadyResponse> {
  const { blockNumber, ageMs, stale } = market.freshness()
  const { backend, state, restarts } = solver.status()
  const fresh = !stale && blockNumber !== undefined
  const redisConnected = redis ? redis.isReady() : undefined
  const nodes = rpc?.nodes().map((n, index) => ({ index, circuit: n.state, retryInMs: Math.max(0, Math.round(n.retryInMs)) }))
  const notReady: NotReadyReason[] = []
  if (!fresh) notReady.push('marketStale')
  if (state !== 'ready') notReady.push('solverRestarting')
  if (redisConnected === false) notReady.push('redisDisconnected')
  if (nodes && nodes.every((n) => n.circuit === 'open')) notReady.push('rpcCircuitsOpen')
  const discovery = market.discovery?.()
  if (discovery && (discovery.phase === 'scanning' || discovery.phase === 'readingPools')) notReady.push('coldStart')
  return {
    ready: notReady.length === 0,
    notReady,
    market: {
      blockNumber: blockNumber === undefined ? null : Number(blockNumber),
      ageMs: Number.isFinite(ageMs) ? Math.max(0, Math.round(ageMs)) : null,
      maxAgeMs: maxSnapshotAgeMs,
      fresh,
    },
    solver: { backend, state, restarts },
    redis: redisConnected === undefined ? null : { connected: redisConnected },
    rpc: nodes ? { nodes } : null,
    discovery: discovery
      ? {
          phase: discovery.phase,
          scannedBlocks: Number(discovery.scannedBlocks),
          totalBlocks: Number(discovery.totalBlocks),
          percent:
            discovery.totalBlocks === 0n
              ? discovery.phase === 'notStarted'
                ? 0
                : 100
              : Number((discovery.scannedBlocks * 1000n) / discovery.totalBlocks) / 10,
          poolsFound: discovery.pools,
          ranges: discovery.ranges,
          rangeBlocks: Number(discovery.rangeBlocks),
          etaSeconds: discovery.etaMs === undefined ? null : Math.round(discovery.etaMs / 1000),
        }
      : null,
    notCovered: notCovered.map(({ dex, what }) => ({ dex, what })),
  }
}
