import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { idempotencyFingerprint } from './idempotencyFingerprint.ts'

/** Spec §8: an Idempotency-Key is 1 to 255 characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/**
 * Headers that belong to one exchange, not to the prepared result: a replay sends its own (a
 * fresh request id, the limiter's state now, its own CORS answer). Everything else the route set
 * (`content-type`, `deprecation`, `link`, …) is replayed as it was.
 */
const PER_EXCHANGE_HEADERS = new Set([
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'vary',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'cache-control',
])

/** Sent on a replayed response (the convention of Stripe's and the IETF draft's implementations). */
export const REPLAYED_HEADER = 'idempotent-replayed'

/**
 * Whether this request will be answered by replaying a completed response (same API key, key,
 * route and body, within 24 hours). The limiter still charges its units (spec §8 rule 1) but not
 * the safety ceilings: a replay prepares nothing, and a client retrying after a lost answer must
 * get it even when the ceiling (one launch per creator per minute) is spent.
 *
 * @example
 * const replay = await willReplay(request, deps)
 * // → true when this key, route and body completed before: the ceilings are not charged for the replay
 */
export async function willReplay(request: FastifyRequest, deps: GatewayDependencies): Promise<boolean> {
  const key = request.headers['idempotency-key']
  const apiKey = request.gw?.key
  if (!request.routeOptions.config?.gateway?.idempotency || typeof key !== 'string' || !apiKey) return false
  return deps.idempotency.isReplay({ keyPrefix: apiKey.prefix, key, fingerprint: fingerprintOf(request) })
}

const fingerprintOf = (request: FastifyRequest) =>
  idempotencyFingerprint({ method: request.method, path: request.url.split('?')[0], body: request.body })

type Held = { keyPrefix: string; key: string; leaseId: string; settled: boolean }

/**
 * `Idempotency-Key` on the routes whose `config.gateway.idempotency` says so (spec §3, §4 rule 1,
 * §8):
 * - `preValidation` (request validation, before the limiter: a refusal costs nothing):
 *   `missing_idempotency_key` where it is required and absent, `invalid_idempotency_key` when it
 *   is empty, longer than 255 characters or sent twice.
 * - `preHandler`, after the limiter admitted the request (a replay costs its units again, §8 rule
 *   1): the key is claimed for this API key and the request's fingerprint (route and canonical
 *   body). A completed request's response is sent again (status, body, the route's headers, plus
 *   `Idempotent-Replayed: true`); an identical request still running is `idempotency_in_progress`;
 *   the key with other input is `idempotency_key_reused` and nothing is prepared.
 * - `onSend`: the response is kept (2xx and 4xx: the outcome of this input; a 5xx frees the key,
 *   so the same request may be tried again). A request that ends without a response (aborted)
 *   frees it too; a process killed mid-request leaves it to its lease (`IDEMPOTENCY_LEASE_MS`).
 *
 * @example
 * installIdempotencyHooks(fastify, deps) // after installGatewayHooks: runs after the limiter
 */
export function installIdempotencyHooks(fastify: FastifyInstance, deps: GatewayDependencies): void {
  const held = new WeakMap<FastifyRequest, Held>()
  fastify.addHook('preValidation', async (request) => {
    const mode = request.routeOptions.config?.gateway?.idempotency
    if (!mode) return
    const value = request.headers['idempotency-key']
    if (value === undefined) {
      if (mode === 'required')
        throw new GatewayProblem('missing_idempotency_key', {
          detail: 'This route needs an Idempotency-Key header (a fresh random UUID per new request).',
        })
      return
    }
    // Node joins a repeated header with ", ": a key can contain a comma, so a repeat is seen in the raw headers.
    const repeated =
      request.raw.rawHeaders.filter((_, i) => i % 2 === 0).filter((name) => name.toLowerCase() === 'idempotency-key').length > 1
    if (typeof value !== 'string' || repeated || value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new GatewayProblem('invalid_idempotency_key', {
        detail: repeated
          ? 'Send exactly one Idempotency-Key header.'
          : `The Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
        invalidParameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            reason: repeated ? 'sent more than once' : `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
          },
        ],
      })
    }
  })
  fastify.addHook('preHandler', async (request, reply) => {
    const mode = request.routeOptions.config?.gateway?.idempotency
    const key = request.headers['idempotency-key']
    const apiKey = request.gw?.key
    if (!mode || typeof key !== 'string' || !apiKey || request.gw.units === 0) return
    const fingerprint = fingerprintOf(request)
    const claim = await deps.idempotency.claim({ keyPrefix: apiKey.prefix, key, fingerprint })
    if (claim.kind === 'claimed') {
      held.set(request, { keyPrefix: apiKey.prefix, key, leaseId: claim.leaseId, settled: false })
      return
    }
    if (claim.kind === 'in_progress')
      throw new GatewayProblem('idempotency_in_progress', {
        detail: 'A request with this Idempotency-Key is still running; retry the exact request with the same key.',
        retryAfterSec: 1,
      })
    if (claim.kind === 'reused')
      throw new GatewayProblem('idempotency_key_reused', {
        detail:
          'This Idempotency-Key was used in the last 24 hours with another route or body; nothing was prepared. Use a fresh key for a new request.',
      })
    for (const [name, value] of Object.entries(claim.response.headers)) reply.header(name, value)
    reply.header(REPLAYED_HEADER, 'true')
    reply.code(claim.response.status)
    return reply.send(claim.response.body)
  })
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const entry = held.get(request)
    if (!entry || entry.settled) return payload
    entry.settled = true
    if (reply.statusCode >= 500 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      await deps.idempotency.abandon(entry)
      return payload
    }
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !PER_EXCHANGE_HEADERS.has(name.toLowerCase()))
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    }
    await deps.idempotency.complete({ ...entry, response: { status: reply.statusCode, headers, body: payload.toString() } })
    return payload
  })
  const free = async (request: FastifyRequest) => {
    const entry = held.get(request)
    if (!entry || entry.settled) return
    entry.settled = true
    await deps.idempotency.abandon(entry).catch(() => {})
  }
  fastify.addHook('onResponse', free)
  fastify.addHook('onRequestAbort', free)
}
