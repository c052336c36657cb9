import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { app } from './app.ts'
import type { SecretRedactor } from '../logging/createSecretRedactor.ts'
import type { SwapApiDependencies } from './SwapApiDependencies.ts'
import { swapServerOptions } from './swapServerOptions.ts'

export type CreateSwapAppParameters = {
  deps: SwapApiDependencies
  /** pino options (or a pino instance's options: `{ level, stream }`); false: silent. */
  logger?: FastifyServerOptions['logger'] | false
  /** Applied to every log line (the secrets of the configuration); see swapServerOptions. */
  redact?: SecretRedactor
  /** Runs when the app closes, after the server stopped accepting requests (stop what it runs on). */
  onClose?: () => Promise<void>
  /** The HTTP server to serve on (`server.ts`: the one already listening while the service loaded). */
  serverFactory?: FastifyServerOptions['serverFactory']
}

/**
 * A ready Fastify instance serving the swap surface (`app.ts`) with the service's options; not
 * listening (`server.ts` listens; tests use `inject` or listen on port 0).
 *
 * @example
 * const fastify = await createSwapApp({ deps, logger: { level: 'info' } })
 * const res = await fastify.inject({ method: 'GET', url: '/health' }) // → res.statusCode 200, res.json() { ok: true }
 */
export async function createSwapApp({
  deps,
  logger = false,
  redact,
  onClose,
  serverFactory,
}: CreateSwapAppParameters): Promise<FastifyInstance> {
  const fastify = Fastify({
    ...swapServerOptions({ logger, redact }),
    ...(serverFactory ? { serverFactory } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>()
  await fastify.register(app, deps)
  if (onClose) fastify.addHook('onClose', async () => onClose())
  await fastify.ready()
  return fastify as unknown as FastifyInstance
}
