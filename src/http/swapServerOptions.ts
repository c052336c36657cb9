import { randomUUID } from 'node:crypto'
import type { FastifyServerOptions } from 'fastify'

/** Largest request body accepted (bytes); the largest spec request is well under 2 KiB. */
export const BODY_LIMIT_BYTES = 32 * 1024

/** Header paths pino must never print (the API key), whatever serializer logs them. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'request.headers["x-api-key"]',
  'headers["x-api-key"]',
  'req.headers.authorization',
]

/**
 * Fastify options of the swap service: strict validation (no coercion, no removal of extra
 * properties: those are refused), a body limit, a request id per request (returned as
 * `x-request-id`), pino with the API-key header redacted.
 *
 * @example
 * const fastify = Fastify(swapServerOptions({ logger: { level: 'info' } }))
 */
export function swapServerOptions({ logger }: { logger: FastifyServerOptions['logger'] | false }): FastifyServerOptions {
  const loggerOptions = logger === false || logger === undefined
    ? false
    : typeof logger === 'object'
      ? { ...logger, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
      : { redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  return {
    logger: loggerOptions as FastifyServerOptions['logger'],
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
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
