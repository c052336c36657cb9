import type { FastifyServerOptions } from 'fastify'
import { REDACTED, type SecretRedactor } from '../../logging/createSecretRedactor.ts'
import { REDACTED_PATHS } from '../../http/swapServerOptions.ts'

/** A gateway key anywhere in a line: its prefix stays (it names the key to the operator), its secret goes. */
const GATEWAY_KEY = /\b(gw_(?:live|test)_[a-z2-7]{12}_)[0-9a-f]{32}\b/g

/**
 * The gateway's logger options, redacting as the swap service's do (`swapServerOptions`): pino
 * censors the `x-api-key` header wherever a serializer logs it, and every line, as written, loses
 * the secret of any gateway key it contains (in an error message, a URL, a body) and whatever the
 * deployment's own redactor knows (`redact`: RPC URLs with credentials, for one).
 *
 * @example
 * Fastify({ logger: gatewayLoggerOptions({ logger: { level: 'info' } }) })
 * // a logger whose lines show x-api-key, cookies and any gateway key's secret as [redacted]
 */
export function gatewayLoggerOptions({
  logger,
  redact,
}: {
  logger: FastifyServerOptions['logger'] | false | undefined
  redact?: SecretRedactor
}): FastifyServerOptions['logger'] | false {
  if (logger === false || logger === undefined) return false
  const own = { redact: { paths: [...REDACTED_PATHS, 'req.headers.cookie'], censor: REDACTED } }
  const base: Record<string, unknown> = typeof logger === 'object' && logger !== null ? { ...logger, ...own } : own
  const hooks = (base.hooks ?? {}) as { streamWrite?: (line: string) => string }
  const before = hooks.streamWrite
  const scrub = (line: string) => line.replace(GATEWAY_KEY, `$1${REDACTED}`)
  base.hooks = {
    ...hooks,
    streamWrite: (line: string) => scrub(redact ? redact(before ? before(line) : line) : before ? before(line) : line),
  }
  return base as FastifyServerOptions['logger']
}
