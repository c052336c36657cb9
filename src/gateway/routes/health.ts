import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** An indexer further behind its chain's head than this is reported `syncing`. */
const SYNCED_LAG_BLOCKS = 5

/** Longest wait for the store's `SELECT 1`: health answers at once, whatever the database does. */
const STORE_PROBE_MS = 1_000

/** The shared limiter's connection (memory: always up). */
async function limitsState(deps: GatewayDependencies): Promise<'up' | 'down'> {
  return !deps.redis || deps.redis.isReady() ? 'up' : 'down'
}

/** Whether the store answers a trivial statement in time. */
async function storeState(deps: GatewayDependencies): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), STORE_PROBE_MS)
  })
  const probe = deps.db.query('SELECT 1 AS one').then(
    () => 'up' as const,
    () => 'down' as const,
  )
  try {
    return await Promise.race([probe, deadline])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `GET /health`: public, free (spec §4 rule 4). Always 200 while the process answers (liveness);
 * `ready` says whether keyed requests can be served (the shared limiter and the store answer),
 * `not_ready_because` why not; `status` is `degraded` when not ready or an indexer is failing or
 * stopped, and each chain's indexer position says how current the read model is.
 *
 * @example
 * registerHealthRoute(fastify, deps)
 * // GET /health now answers 200 { status: 'ok' | 'degraded', chains: [{ chain_id, indexer }], meta }, free
 */
export function registerHealthRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/health',
    {
      schema: {
        summary: 'Liveness (public: no key, no units)',
        operationId: 'health',
        security: [],
        response: {
          200: {
            description: 'The gateway answers; how far each indexer is',
            content: { 'application/json': { schema: Type.Ref('GatewayHealth') } },
          },
        },
      },
      config: { public: true },
    },
    async () => {
      const chains = deps.indexers().map((s) => {
        const lag = s.headBlock !== undefined && s.blockNumber !== undefined ? Math.max(0, s.headBlock - s.blockNumber) : null
        const state = !s.running ? 'stopped' : s.lastError ? 'failing' : lag !== null && lag <= SYNCED_LAG_BLOCKS ? 'synced' : 'syncing'
        return {
          chain_id: s.chainId,
          indexer: {
            state,
            block_number: s.blockNumber ?? null,
            head_block: s.headBlock ?? null,
            lag_blocks: lag,
            role: s.role ?? null,
          },
        }
      })
      const [limits, store] = await Promise.all([limitsState(deps), storeState(deps)])
      const notReadyBecause = [
        ...(limits === 'down' ? ['the shared rate limiter (Redis) cannot be reached: keyed requests are refused with 503'] : []),
        ...(store === 'down' ? ['the gateway database cannot be reached: keyed requests are refused with 503'] : []),
      ]
      const degraded = notReadyBecause.length > 0 || chains.some((c) => c.indexer.state === 'failing' || c.indexer.state === 'stopped')
      return {
        status: degraded ? 'degraded' : 'ok',
        ready: notReadyBecause.length === 0,
        not_ready_because: notReadyBecause,
        shared_state: {
          limits: { engine: deps.redis ? 'redis' : 'memory', state: limits },
          store: { engine: deps.db.dialect, state: store },
        },
        chains,
        meta: { generated_at: new Date(deps.now()).toISOString() },
      }
    },
  )
}
