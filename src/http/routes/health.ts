import type { FastifyInstance } from 'fastify'
import { HealthResponse } from '../schemas/health.ts'

export const healthRoute = {
  method: 'GET',
  url: '/health',
  public: true,
  summary: 'Liveness probe (no authentication, not rate limited)',
  schema: { response: { 200: HealthResponse } },
} as const

/**
 * `GET /health` → `{ok: true}`.
 *
 * @example
 * registerHealthRoute(fastify)
 */
export function registerHealthRoute(fastify: FastifyInstance): void {
  fastify.get('/health', { schema: healthRoute.schema, config: { public: true } }, async () => ({ ok: true }))
}
