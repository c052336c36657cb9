import { AjvCompiler } from '@fastify/ajv-compiler'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { gatewayApp } from './app.ts'
import type { GatewayDependencies } from './GatewayDependencies.ts'
import { gatewayLoggerOptions } from './http/gatewayLoggerOptions.ts'
import { newRequestId } from './http/newRequestId.ts'
import { serializersByContent } from '../http/serializersByContent.ts'
import type { SecretRedactor } from '../logging/createSecretRedactor.ts'

export type CreateGatewayAppParameters = {
  deps: GatewayDependencies
  logger?: FastifyServerOptions['logger'] | false
  /** Applied to every log line besides the gateway's own redaction of keys (`gatewayLoggerOptions`). */
  redact?: SecretRedactor
  /** Behind a proxy: whose `X-Forwarded-For` to trust for the client address (the per-source ceilings). */
  trustProxy?: FastifyServerOptions['trustProxy']
  onClose?: () => Promise<void>
  /** A server already listening (`listenWhileLoading`'s): Fastify answers on it once handed over. */
  serverFactory?: FastifyServerOptions['serverFactory']
}

/** Largest request body (the read routes take none; the prepare routes' largest, a metadata document, a few KiB). */
const BODY_LIMIT_BYTES = 64 * 1024

/**
 * A ready Fastify instance serving the gateway surface (`app.ts`), not listening: its own request
 * ids (`req_…`), its own validator settings (every invalid field reported, nothing silently
 * dropped; query and path strings coerced to the schema's numbers and booleans, JSON bodies never
 * coerced: a string `"10"` where an integer is due is refused), its own error handler.
 *
 * @example
 * const fastify = await createGatewayApp({ deps })
 * await fastify.listen({ host: '127.0.0.1', port: 8081 })
 * // every gateway route now on 127.0.0.1:8081, errors as application/problem+json
 */
export async function createGatewayApp({
  deps,
  logger = false,
  redact,
  trustProxy = false,
  onClose,
  serverFactory,
}: CreateGatewayAppParameters): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: gatewayLoggerOptions({ logger, redact }),
    trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // A path parameter of any length reaches validation (a documented 400), not the router's 414.
    routerOptions: { maxParamLength: 16_384 },
    genReqId: () => newRequestId(deps.now()),
    requestIdHeader: false,
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: true, useDefaults: true } },
    schemaController: { compilersFactory: { buildValidator: bodiesUncoerced() as never, buildSerializer: serializersByContent() } },
    ...(serverFactory ? { serverFactory } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>()
  await fastify.register(gatewayApp, deps)
  if (onClose) fastify.addHook('onClose', async () => onClose())
  await fastify.ready()
  return fastify as unknown as FastifyInstance
}

/**
 * Fastify's own validator compiler, twice: the configured options for the query, path and
 * headers (strings that must become numbers), and the same without type coercion for bodies
 * (JSON carries its own types; spec §4: a value of the wrong type is invalid, not converted).
 */
function bodiesUncoerced() {
  const build = AjvCompiler()
  return (externalSchemas: unknown, options: { customOptions: Record<string, unknown> }) => {
    const coercing = build(externalSchemas as never, options as never)
    const strict = build(externalSchemas as never, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } } as never)
    return (route: { httpPart?: string }) => (route.httpPart === 'body' ? strict : coercing)(route as never)
  }
}
