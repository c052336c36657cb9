import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { gatewayApp } from './app.ts'
import type { GatewayDependencies } from './GatewayDependencies.ts'
import { newRequestId } from './http/newRequestId.ts'

export type CreateGatewayAppParameters = {
  deps: GatewayDependencies
  logger?: FastifyServerOptions['logger'] | false
  /** Behind a proxy: whose `X-Forwarded-For` to trust for the client address (the per-source ceilings). */
  trustProxy?: FastifyServerOptions['trustProxy']
  onClose?: () => Promise<void>
}

/** Largest request body (the read routes take none; the retired claim route a small one). */
const BODY_LIMIT_BYTES = 64 * 1024

/**
 * A ready Fastify instance serving the gateway surface (`app.ts`), not listening: its own request
 * ids (`req_…`), its own validator settings (every invalid field reported, nothing silently
 * dropped or coerced into arrays), its own error handler.
 *
 * @example
 * const fastify = await createGatewayApp({ deps })
 * await fastify.listen({ host: '127.0.0.1', port: 8081 })
 */
export async function createGatewayApp({ deps, logger = false, trustProxy = false, onClose }: CreateGatewayAppParameters): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger,
    trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newRequestId(deps.now()),
    requestIdHeader: false,
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: true, useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>()
  await fastify.register(gatewayApp, deps)
  if (onClose) fastify.addHook('onClose', async () => onClose())
  await fastify.ready()
  return fastify as unknown as FastifyInstance
}
