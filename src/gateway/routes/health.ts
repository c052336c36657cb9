import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** An indexer further behind its chain's head than this is reported `syncing`. */
const SYNCED_LAG_BLOCKS = 5

/**
 * `GET /health`: public, free (spec §4 rule 4). Always 200 while the process answers; `status`
 * is `degraded` when an indexer is failing or stopped, and each chain's indexer position says
 * how current the read model is.
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
          indexer: { state, block_number: s.blockNumber ?? null, head_block: s.headBlock ?? null, lag_blocks: lag },
        }
      })
      const degraded = chains.some((c) => c.indexer.state === 'failing' || c.indexer.state === 'stopped')
      return { status: degraded ? 'degraded' : 'ok', chains, meta: { generated_at: new Date(deps.now()).toISOString() } }
    },
  )
}
