import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from './GatewayDependencies.ts'
import { installGatewayHooks } from './http/installGatewayHooks.ts'
import { installIdempotencyHooks } from './idempotency/installIdempotencyHooks.ts'
import { registerGatewayOpenApi } from './openapi/registerGatewayOpenApi.ts'
import { GatewayProblem } from './problems/GatewayProblem.ts'
import { sendProblem, toProblem } from './problems/handleGatewayError.ts'
import { gatewayRoutes } from './routes/gatewayRoutes.ts'
import { gatewayComponents } from './schemas/gatewayComponents.ts'

/**
 * The gateway surface as a Fastify plugin (no `listen`): shared schemas, the OpenAPI document,
 * the request pipeline (`installGatewayHooks`: key, scope, origin, validation, limits, headers),
 * one error handler answering `application/problem+json`, and the routes (`gatewayRoutes`).
 * Registered without encapsulation, so unknown paths go through the same pipeline (401 before
 * 404) and get `not_found`.
 *
 * @example
 * const fastify = Fastify({ genReqId: () => newRequestId() })
 * await fastify.register(gatewayApp, deps)
 * // the gateway's routes, hooks and problem handler now on fastify; an unknown path: 401 without a key, not_found with one
 */
export async function gatewayApp(fastify: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  for (const schema of gatewayComponents()) fastify.addSchema(schema)
  await registerGatewayOpenApi(fastify)
  installGatewayHooks(fastify, deps)
  // After the gateway's own hooks: a key is claimed only once the limiter admitted the request.
  installIdempotencyHooks(fastify, deps)
  fastify.setErrorHandler((error, request, reply) =>
    sendProblem({ reply, request, problem: toProblem(error as Error, request.log), problemsUrl: deps.problemsUrl, now: deps.now }),
  )
  fastify.setNotFoundHandler(async (request, reply) =>
    sendProblem({
      reply,
      request,
      problem: new GatewayProblem('not_found', { detail: `No route ${request.method} ${request.url.split('?')[0].slice(0, 200)}.` }),
      problemsUrl: deps.problemsUrl,
      now: deps.now,
    }),
  )
  for (const register of gatewayRoutes) await register(fastify, deps)
}

;(gatewayApp as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
