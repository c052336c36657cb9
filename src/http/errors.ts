import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { isTransportError } from '../market/isTransportError.ts'
import { BaseError } from '../errors/BaseError.ts'
import { QuoteError, type InvalidQuoteRequestError, type NoRouteError, type QuoteMarketStaleError } from '../quote/errors.ts'
import { RouterEncodingError } from '../router/RouterEncodingError.ts'
import { schemaErrorField } from '../validation/schemaErrorField.ts'

/** Base class of the swap surface's own errors: a status and a message safe to show the client. */
export class HttpError extends BaseError<'http'> {
  override name = 'HttpError'
  readonly statusCode: number
  constructor(statusCode: number, message: string) {
    super('http', message)
    this.statusCode = statusCode
  }
}

/** A request the spec's rules refuse beyond what the schema checks; `field` is named in the message. */
export class BadRequestError extends HttpError {
  override name = 'BadRequestError'
  constructor({ field, message }: { field: string; message: string }) {
    super(400, `${field}: ${message}`)
  }
}

/** `/submit` with a quoteId that is unknown, expired, or made with another API key. */
export class QuoteNotFoundError extends HttpError {
  override name = 'QuoteNotFoundError'
  constructor() {
    super(404, 'quote not found: unknown, expired, or made with another API key')
  }
}

/**
 * The domain errors the swap surface answers with their own status, told apart by `kind`. A kind
 * names a situation in its layer's vocabulary, and another layer may use the same word for its
 * own (the solver's and an upstream's `'no route'`, documented in their own answers): those are
 * translated where they are caught (the quote service, the upstream comparison), so one that
 * reaches the handler escaped its layer and is answered as the internal error it is.
 */
type SwapSurfaceError = HttpError | InvalidQuoteRequestError | NoRouteError | RouterEncodingError | QuoteMarketStaleError

/** Whether `error` is one of the swap surface's own (its kinds are unique among them: `errors.test.ts`). */
function isSwapSurfaceError(error: unknown): error is SwapSurfaceError {
  return error instanceof HttpError || error instanceof QuoteError || error instanceof RouterEncodingError
}

/** Fastify's own 4xx errors, answered with our wording (never the parser's internals). */
const fastifyClientErrors: Record<string, { status: number; error: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, error: 'body: content-type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, error: 'body: content-length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'body: empty, a JSON object is required' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, error: 'body: too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'body: not valid JSON' },
}

/** One ajv error, with the failing schema (`verbose: true` in swapServerOptions). */
type AjvError = {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
  schema?: unknown
  parentSchema?: { description?: unknown }
}

/**
 * One ajv error as `{error}` text that names the field first. A refused combination (`not`) is
 * answered with its negated schema's description, which the schemas write as the whole message
 * (`gasPriceWei: cannot be combined with …`); a missed pattern is answered with the schema's
 * description (`amountIn: must be a decimal integer in 1..2^256-1 …`: that pattern runs to
 * thousands of characters), or the pattern itself when the schema has none.
 */
export function describeValidationError(error: AjvError): string {
  if (error.keyword === 'required') return `${schemaErrorField(error)}: is required`
  if (error.keyword === 'additionalProperties') return `${schemaErrorField(error)}: is not allowed (no extra properties)`
  if (error.keyword === 'not') {
    const description = (error.schema as { description?: unknown } | undefined)?.description
    if (typeof description === 'string') return description
  }
  if (error.keyword === 'const') return `${schemaErrorField(error)}: must be ${JSON.stringify(error.params.allowedValue)}`
  if (error.keyword === 'pattern' && typeof error.parentSchema?.description === 'string')
    return `${schemaErrorField(error)}: must be ${error.parentSchema.description}`
  return `${schemaErrorField(error)}: ${error.message ?? 'is invalid'}`
}

/**
 * The request's name for a field the router encoder refused (`routerFields` of the route's
 * config: `recipient` → `user`, `permit` → `permit`, so `permit.r` stays `permit.r`), or undefined
 * when the field is not the caller's (the plan, the server's fee recipient or deadline).
 */
function requestFieldOf(encoderPath: string, routerFields: Record<string, string> | undefined): string | undefined {
  if (!routerFields) return undefined
  const [head, ...rest] = encoderPath.split('.')
  const field = Object.hasOwn(routerFields, head) ? routerFields[head] : undefined
  return field === undefined ? undefined : [field, ...rest].join('.')
}

/**
 * The swap surface's one error handler: schema failures and our domain errors become `{error}`
 * with their status (a `RouterEncodingError` on a request field is a 400 naming the request's
 * field, e.g. `permit.r`); anything else is a 500 whose body never carries the internal message (it is
 * logged with the request id instead).
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.validation) {
    const first = error.validation[0] as unknown as AjvError
    return reply.code(400).send({ error: describeValidationError(first) })
  }
  const known = error.code ? fastifyClientErrors[error.code] : undefined
  if (known) return reply.code(known.status).send({ error: known.error })
  if (isSwapSurfaceError(error)) {
    const domain = error
    switch (domain.kind) {
      case 'http':
        return reply.code(domain.statusCode).send({ error: domain.message })
      case 'invalid request':
        return reply.code(400).send({ error: domain.message })
      case 'no route':
        return reply.code(400).send({ error: `no route: ${domain.message}` })
      case 'router encoding': {
        // A request field the router cannot encode is the caller's 400; anything else came from our
        // own plan or configuration, so it is our 500.
        const field = requestFieldOf(domain.path, request.routeOptions.config?.routerFields)
        if (field) return reply.code(400).send({ error: `${field}: ${domain.reason}` })
        break
      }
      case 'stale market':
        request.log.warn({ err: error }, 'quote refused: market stale')
        return reply
          .code(503)
          .send({ error: domain.publicReason ?? 'market data is stale: quotes are refused until the chain is reachable again' })
    }
  }
  if (isTransportError(error)) {
    // The chain's RPC did not answer (e.g. the gas price read): the same answer as a stale market.
    request.log.warn({ err: error }, 'quote refused: chain unreachable')
    return reply.code(503).send({ error: 'chain unreachable: quotes are refused until it answers again' })
  }
  if (error instanceof SyntaxError || (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)) {
    // A body parser's or Fastify's client error we have no wording for: the status, a generic text.
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400
    return reply.code(status).send({ error: status === 413 ? 'body: too large' : 'body: not a valid request' })
  }
  request.log.error({ err: error }, 'internal error')
  return reply.code(500).send({ error: 'internal error' })
}
