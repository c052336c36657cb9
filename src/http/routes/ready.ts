import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'

/**
 * `GET /ready`: the market's age and the solver's state; 200 when the snapshot is fresh and the
 * solver is ready, 503 otherwise (a load balancer stops sending quotes here meanwhile). Public: no
 * key, never counted, states and numbers only. `/health` stays the spec's liveness probe: always
 * `{ok: true}` while the process serves.
 *
 * @example
 * registerReadyRoute(fastify, deps)
 */
export function registerReadyRoute(fastify: FastifyInstance, deps: Pick<SwapApiDependencies, 'readiness'>): void {
  fastify.get('/ready', {
    schema: {
      summary: 'Readiness probe: can this instance price quotes now? (no authentication, not rate limited)',
      operationId: 'ready',
      security: [],
      response: {
        200: { ...Type.Ref('ReadyResponse'), description: 'Ready: the market snapshot is fresh and the solver answers' },
        503: { ...Type.Ref('ReadyResponse'), description: 'Not ready: the snapshot is stale or missing, or the solver is restarting (the body says which)' },
      },
    },
    config: { public: true },
  }, async (_request, reply) => {
    const report = deps.readiness()
    return reply.code(report.ready ? 200 : 503).send(report)
  })
}
