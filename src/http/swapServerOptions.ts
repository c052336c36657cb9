import { randomUUID } from 'node:crypto'
import type { FastifyServerOptions } from 'fastify'
import type { SecretRedactor } from '../logging/createSecretRedactor.ts'
import { serializersByContent } from './serializersByContent.ts'

/** Largest request body accepted (bytes); the largest spec request is well under 2 KiB. */
export const BODY_LIMIT_BYTES = 32 * 1024

/** Header paths pino must never print (the API key), whatever serializer logs them. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'request.headers["x-api-key"]',
  'headers["x-api-key"]',
  'req.headers.authorization',
]

export type SwapServerOptionsParameters = {
  logger: FastifyServerOptions['logger'] | false
  /**
   * Applied to every log line as written (pino's `streamWrite` hook: after serialization, so it
   * also sees error messages, causes and any property a serializer adds). The service passes the
   * redactor of its configured secrets (RPC URLs, API keys, the quote signing key).
   */
  redact?: SecretRedactor
}

/**
 * Fastify options of the swap service: strict validation (no coercion, no removal of extra
 * properties: those are refused), a body limit, a request id per request (returned as
 * `x-request-id`), pino with the API-key header censored and every line passed through `redact`.
 *
 * @example
 * const fastify = Fastify(swapServerOptions({ logger: { level: 'info' }, redact: createSecretRedactor({ urls: [rpcUrl] }) }))
 * // → strict Ajv (no coercion), 32 KiB bodies, a UUID per request, logs with x-api-key and RPC URLs redacted
 */
export function swapServerOptions({ logger, redact }: SwapServerOptionsParameters): FastifyServerOptions {
  const own = { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  const base: Record<string, unknown> = typeof logger === 'object' && logger !== null ? { ...logger, ...own } : own
  if (redact) {
    const hooks = (base.hooks ?? {}) as { streamWrite?: (line: string) => string }
    const before = hooks.streamWrite
    base.hooks = { ...hooks, streamWrite: (line: string) => redact(before ? before(line) : line) }
  }
  const loggerOptions = logger === false || logger === undefined ? false : base
  return {
    logger: loggerOptions as FastifyServerOptions['logger'],
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    schemaController: { compilersFactory: { buildSerializer: serializersByContent() } },
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        allErrors: false,
        // Errors carry the failing schema: a refused combination answers with its description (errors.ts).
        verbose: true,
        // int64 is an OpenAPI annotation; `type: integer` already checks the value.
        formats: { int64: true },
      },
    },
  }
}
