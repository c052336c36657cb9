import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import { ReadyResponse } from '../schemas/ready.ts'
import type { SwapApiDependencies } from '../SwapApiDependencies.ts'

export const readyRoute = {
  method: 'GET',
  url: '/ready',
  public: true,
  summary: 'Readiness probe: 200 when quotes can be priced now, else 503 with the reason (no authentication, not rate limited)',
  schema: { response: { 200: ReadyResponse, 503: ReadyResponse } },
} as const

/**
 * `GET /ready`: the market's age and the solver's state; 200 when the snapshot is fresh and the
 * solver is ready, 503 otherwise (a load balancer stops sending quotes here meanwhile). `/health`
 * stays the spec's liveness probe: always `{ok: true}` while the process serves.
 *
 * @example
 * registerReadyRoute(fastify, deps)
 */
export function registerReadyRoute(fastify: FastifyInstance, deps: Pick<SwapApiDependencies, 'readiness'>): void {
  fastify.get('/ready', { schema: readyRoute.schema, config: { public: true } }, async (_request, reply) => {
    const report: Static<typeof ReadyResponse> = deps.readiness()
    return reply.code(report.ready ? 200 : 503).send(report)
  })
}
