import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { GatewayProblem, type InvalidParameter } from './GatewayProblem.ts'
import { problemBody } from './problemBody.ts'
import { schemaErrorField } from '../../validation/schemaErrorField.ts'
import { SharedStateUnavailableError } from '../../limits/SharedStateUnavailableError.ts'
import { DatabaseUnavailableError } from '../store/DatabaseUnavailableError.ts'

type AjvError = { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }

const WHERE: Record<string, InvalidParameter['in']> = { querystring: 'query', params: 'path', body: 'body', headers: 'header' }

/** Fastify's own client errors: the request or its transport was invalid (spec §7 `invalid_request`). */
const TRANSPORT_ERRORS = new Set([
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_INVALID_TYPE',
])

/**
 * The problem a thrown error is answered with: our `GatewayProblem` as it is; the shared limiter
 * or database unreachable as `temporarily_unavailable` (503); an unknown body
 * field as `unknown_parameter`; any other schema failure as `invalid_parameter` listing every offending field; a body too large as `invalid_request` (413);
 * other transport errors as `invalid_request` (400); anything else as `internal_error`, whose
 * body never carries the internal message (it is logged with the request id).
 *
 * @example
 * const problem = toProblem(error)
 * // a schema error → 'invalid_parameter' (or 'unknown_parameter'); a GatewayProblem as it is; any other → 'internal_error'
 */
export function toProblem(error: FastifyError | Error, log?: FastifyRequest['log']): GatewayProblem {
  if (error instanceof GatewayProblem) return error
  // The shared state (Redis's limits, PostgreSQL's store) is down: refused, never served without it.
  if (error instanceof SharedStateUnavailableError)
    return new GatewayProblem('temporarily_unavailable', { detail: 'The shared rate limiter cannot be reached.', retryAfterSec: 1 })
  if (error instanceof DatabaseUnavailableError)
    return new GatewayProblem('temporarily_unavailable', { detail: 'The gateway database cannot be reached.', retryAfterSec: 1 })
  const e = error as FastifyError
  if (e.validation) {
    const where = WHERE[e.validationContext ?? 'querystring'] ?? 'query'
    // A body member the route does not accept is `unknown_parameter` (spec §4 rule 2), listed
    // before any other fault (as the query's unknown parameters are, in checkQueryParameters).
    const unknown = (e.validation as unknown as AjvError[]).filter(
      (v) => v.keyword === 'additionalProperties' && typeof v.params.additionalProperty === 'string',
    )
    if (where === 'body' && unknown.length > 0) {
      const names = unknown.map((v) => schemaErrorField(v))
      return new GatewayProblem('unknown_parameter', {
        detail: `Unknown body field${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`,
        invalidParameters: names.map((name) => ({ name, in: 'body', reason: 'is not accepted by this route' })),
      })
    }
    // One entry per field: a union of constants fails once per branch (ajv `const`), said once as the allowed values.
    const byName = new Map<string, { reasons: string[]; allowed: unknown[] }>()
    for (const v of e.validation as unknown as AjvError[]) {
      const name = schemaErrorField(v, where)
      const entry = byName.get(name) ?? { reasons: [], allowed: [] }
      if (v.keyword === 'const') entry.allowed.push(v.params.allowedValue)
      else if (v.keyword !== 'anyOf') entry.reasons.push(v.keyword === 'required' ? 'is required' : (v.message ?? 'is invalid'))
      byName.set(name, entry)
    }
    const unique = [...byName].map(([name, { reasons, allowed }]): InvalidParameter => ({
      name,
      in: where,
      reason: allowed.length ? `must be one of: ${allowed.join(', ')}` : [...new Set(reasons)].join('; ') || 'is invalid',
    }))
    return new GatewayProblem('invalid_parameter', {
      detail: unique.map((p) => `${p.name} ${p.reason}`).join('; '),
      invalidParameters: unique,
    })
  }
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new GatewayProblem('invalid_request', { status: 413, detail: 'The request body is too large.' })
  if (
    (e.code && TRANSPORT_ERRORS.has(e.code)) ||
    error instanceof SyntaxError ||
    (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)
  ) {
    return new GatewayProblem('invalid_request', { detail: 'The request could not be read (its transport, JSON or size is invalid).' })
  }
  log?.error({ err: error }, 'internal error')
  return new GatewayProblem('internal_error', { detail: 'The gateway failed to answer this request.' })
}

/**
 * Sends a problem as `application/problem+json` with its status (and `Retry-After` when it has one).
 *
 * @example
 * return sendProblem({ reply, problem, request, problemsUrl, now })
 * // the reply: problem.status, application/problem+json, Retry-After when the problem has one
 */
export function sendProblem({
  reply,
  request,
  problem,
  problemsUrl,
  now,
}: {
  reply: FastifyReply
  request: FastifyRequest
  problem: GatewayProblem
  problemsUrl: string
  now: () => number
}): FastifyReply {
  if (problem.details.retryAfterSec !== undefined)
    reply.header('retry-after', String(Math.max(1, Math.ceil(problem.details.retryAfterSec))))
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send(problemBody({ problem, requestId: request.id, problemsBaseUrl: problemsUrl, generatedAt: new Date(now()).toISOString() }))
}
