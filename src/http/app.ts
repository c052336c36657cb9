import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SwapApiDependencies } from './SwapApiDependencies.ts'
import { highestFeeCap } from './auth/highestFeeCap.ts'
import { handleError } from './errors.ts'
import { registerOpenApi } from './openapi/registerOpenApi.ts'
import { installJsonBodyParser } from './parseJsonBody.ts'
import { DOCS_PREFIX, registerDocsRoute } from './routes/docs.ts'
import { registerCompareRoute } from './routes/compare.ts'
import { registerExecuteRoute } from './routes/execute.ts'
import { registerHealthRoute } from './routes/health.ts'
import { registerMarketPoolRoute } from './routes/marketPool.ts'
import { registerOpenApiRoute } from './routes/openapi.ts'
import { registerQuoteRoute } from './routes/quote.ts'
import { registerReadyRoute } from './routes/ready.ts'
import { registerSplitRoute } from './routes/split.ts'
import { registerSubmitRoute } from './routes/submit.ts'
import { swapComponents } from './schemas/swapComponents.ts'
import { upstreamComponents } from './schemas/upstream.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Hex SHA-256 of the caller's API key, set by the auth hook ('' on public routes). */
    apiKeyId: string
  }
  interface FastifyContextConfig {
    /** No API key, no rate limit (/health, /openapi.json and the /docs page). */
    public?: boolean
    /**
     * How this route's request names the router encoder's fields (`recipient` → `user`): a
     * `RouterEncodingError` on one of them is the caller's 400, on any other field a 500 (errors.ts).
     */
    routerFields?: Record<string, string>
  }
}

/** The routes whose handler runs the solver, under admission control. */
const SOLVING_ROUTES = new Set(['/quote', '/execute', '/quote/compare', '/quote/split'])

/**
 * The swap surface as a Fastify plugin (no `listen`; `server.ts` listens). Every request but the
 * public ones (`/health`, `/openapi.json`, the `/docs` page) goes through, in this order: API key
 * (401), rate limit (429), body parsing (400/413/415), schema validation (400), the handler.
 * Unknown paths are authenticated and counted too, then 404. `/quote/compare` and `/quote/split`
 * (and their components) are registered only when `deps.upstreams` is set (spec §4 rule 5). The
 * schemas are registered first (one component each, built for this deployment), then
 * `@fastify/swagger`, then the routes, so the document it serves is built from exactly what the
 * routes validate and answer with.
 *
 * Registered without encapsulation (`skip-override`), so the hooks and the not-found handler are
 * the root's: a 404 is authenticated and counted like any call.
 *
 * @example
 * const fastify = Fastify(swapServerOptions({ logger: true }))
 * await fastify.register(app, deps)
 * await fastify.listen({ host: '127.0.0.1', port: 8080 })
 * // every route of the swap surface, authenticated and rate limited, now on 127.0.0.1:8080
 */

export async function app(fastify: FastifyInstance, deps: SwapApiDependencies): Promise<void> {
  /** The release of each admitted solve, until its response is sent. */
  const admitted = new WeakMap<FastifyRequest, () => void>()
  installJsonBodyParser(fastify)
  fastify.decorateRequest('apiKeyId', '')
  fastify.setErrorHandler(handleError)
  // Every schema once, by `$id`: the routes reference them and the document lists them as components.
  const components = swapComponents({
    chainId: deps.chainId,
    weth: deps.weth,
    router: deps.quoteService.router,
    maxFeeBps: highestFeeCap({ keys: deps.apiKeys.allSettings(), feeRecipient: deps.feeRecipient, maxFeeBps: deps.maxFeeBps }),
  })
  for (const schema of Object.values(components)) fastify.addSchema(schema)
  if (deps.upstreams) for (const schema of Object.values(upstreamComponents)) fastify.addSchema(schema)
  await registerOpenApi(fastify, { upstreams: deps.upstreams?.sourceIds ?? [] })
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(DOCS_PREFIX)) route.config = { ...route.config, public: true }
  })

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id)
    if (request.routeOptions.config?.public) return
    const apiKeyId = deps.apiKeys.check(request.headers['x-api-key'])
    if (!apiKeyId) {
      // Requests without a valid key are limited per source address (a key-guessing or flooding
      // source is slowed down); callers with a valid key never count here.
      const bySource = await deps.sourceLimiter?.hit(`source:${request.ip}`)
      if (bySource && !bySource.allowed) {
        deps.metrics?.rateLimited()
        return reply
          .code(429)
          .header('retry-after', String(bySource.retryAfterSec))
          .send({ error: 'rate limit exceeded', limit: bySource.limit, windowSec: bySource.windowSec })
      }
      return reply.code(401).send({ error: 'unauthorized' })
    }
    request.apiKeyId = apiKeyId
    // Every later line of this request names the key's id (a prefix of its digest), never the key.
    request.log = request.log.child({ keyId: apiKeyId.slice(0, 16) })
    const decision = await deps.limiter.hit(apiKeyId)
    if (!decision.allowed) {
      deps.metrics?.rateLimited()
      return reply
        .code(429)
        .header('retry-after', String(decision.retryAfterSec))
        .send({ error: 'rate limit exceeded', limit: decision.limit, windowSec: decision.windowSec })
    }
  })

  // Admission control for the routes that solve (compare and split run our solver beside the
  // upstreams): refused at once (503, Retry-After) rather than queued.
  fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!deps.admission || !SOLVING_ROUTES.has(request.routeOptions.url ?? '')) return
    const decision = deps.admission.enter(request.apiKeyId)
    if (!decision.admitted) {
      deps.metrics?.admissionRefused(decision.reason)
      request.log.warn({ reason: decision.reason }, 'solve refused: admission control')
      return reply.code(503).header('retry-after', '1').send({ error: decision.message })
    }
    admitted.set(request, decision.release)
  })
  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    admitted.get(request)?.()
    admitted.delete(request)
    deps.metrics?.request(
      { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: reply.statusCode },
      reply.elapsedTime / 1000,
    )
  })
  // /metrics is served on its own port (METRICS_PORT, createMetricsServer), not on the public API.

  fastify.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ error: `not found: ${request.method} ${request.url.split('?')[0].slice(0, 200)}` }),
  )

  registerHealthRoute(fastify)
  registerReadyRoute(fastify, deps)
  registerQuoteRoute(fastify, deps)
  registerSubmitRoute(fastify, deps)
  registerExecuteRoute(fastify, deps)
  if (deps.market) registerMarketPoolRoute(fastify, deps.market)
  if (deps.upstreams) {
    registerCompareRoute(fastify, deps, deps.upstreams)
    registerSplitRoute(fastify, deps, deps.upstreams)
  }
  registerOpenApiRoute(fastify)
  await registerDocsRoute(fastify)
}

// Hooks, parser and not-found handler belong to the instance the app is registered on.
;(app as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
