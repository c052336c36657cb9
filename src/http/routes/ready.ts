import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'

/**
 * `GET /ready`: the market's age, the solver's state, Redis's connection and the RPC circuits; 200
 * when this instance can serve quotes, 503 otherwise with every reason in `notReady` (a load
 * balancer stops sending calls here meanwhile). Public: no
 * key, never counted, states and numbers only. `/health` stays the spec's liveness probe: always
 * `{ok: true}` while the process serves.
 *
 * @example
 * registerReadyRoute(fastify, deps) // GET /ready now answers 200 when ready, 503 with `notReady` saying why not
 */
export function registerReadyRoute(fastify: FastifyInstance, deps: Pick<SwapApiDependencies, 'readiness'>): void {
  fastify.get(
    '/ready',
    {
      schema: {
        summary: 'Readiness probe: can this instance price quotes now? (no authentication, not rate limited)',
        operationId: 'ready',
        security: [],
        response: {
          200: {
            ...Type.Ref('ReadyResponse'),
            description:
              'Ready: the market snapshot is fresh, the solver answers, Redis (if any) is connected and an RPC node (if any) is reachable',
          },
          503: {
            ...Type.Ref('ReadyResponse'),
            description:
              'Not ready: the cold start is running (`discovery` says how far), the snapshot is stale or missing, the solver is restarting, Redis is disconnected or every RPC circuit is open (`notReady` says which)',
          },
        },
      },
      config: { public: true },
    },
    async (_request, reply) => {
      const report = deps.readiness()
      return reply.code(report.ready ? 200 : 503).send(report)
    },
  )
}
