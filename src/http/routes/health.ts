import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'

/**
 * `GET /health` → `{ok: true}`: the spec's public liveness probe (no key, not counted).
 *
 * @example
 * registerHealthRoute(fastify) // GET /health now answers 200 { ok: true }, without a key
 */
export function registerHealthRoute(fastify: FastifyInstance): void {
  fastify.get(
    '/health',
    {
      schema: {
        summary: 'Liveness probe (no authentication, not rate limited)',
        operationId: 'health',
        security: [],
        response: { 200: { ...Type.Ref('HealthResponse'), description: '`{"ok":true}`, always' } },
      },
      config: { public: true },
    },
    async () => ({ ok: true }),
  )
}
