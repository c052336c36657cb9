import type { FastifyBaseLogger } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { ceilings } from '../limits/ceilings.ts'
import { MAX_PAGE_LIMIT, type PlanLimits, plans } from '../limits/plans.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { parseApiKey } from './apiKeyFormat.ts'
import type { ApiKeyRecord } from './ApiKeyRecord.ts'
import type { KeyRefusal } from './createKeyStore.ts'

const REFUSALS: Record<KeyRefusal, string> = {
  unknown: 'The key is not known.',
  secret: 'The key fails verification.',
  inactive: 'The key is inactive.',
  revoked: 'The key was revoked.',
  expired: 'The key has expired.',
}

/**
 * A key's limits: its plan's, or its own on the Partner plan (its largest page capped to what any
 * route serves). Undefined when the stored plan is not one we know (or a Partner key lacks whole
 * limits): such a key is refused, never served unlimited.
 */
function limitsOf(key: ApiKeyRecord): PlanLimits | undefined {
  if (key.plan === 'partner') {
    const custom = key.customLimits
    const fields = ['unitsPerMinute', 'burstPerSecond', 'daily', 'monthly', 'maxPage'] as const
    if (!custom || !fields.every((f) => Number.isSafeInteger(custom[f]) && custom[f] > 0)) return undefined
    return { ...custom, maxPage: Math.min(custom.maxPage, MAX_PAGE_LIMIT) }
  }
  return Object.hasOwn(plans, key.plan) ? plans[key.plan as keyof typeof plans] : undefined
}

export type AuthenticateGatewayKeyParameters = {
  /** The request's `x-api-key` header as received (absent, repeated or one value). */
  presented: string | string[] | undefined
  /** The client's address: an uncached lookup is charged to its per-source ceiling. */
  source: string
  deps: Pick<GatewayDependencies, 'keys' | 'limiter' | 'environment'>
  log: Pick<FastifyBaseLogger, 'error'>
}

/**
 * The key a request presents, verified, with the limits it is served under; a `GatewayProblem`
 * otherwise: `missing_api_key`, `invalid_api_key` (malformed, unknown, failing verification,
 * inactive, revoked, expired, a test key on a live deployment, a plan that cannot be verified),
 * `quota_exceeded` (too many lookups of uncached keys from `source`, charged before the lookup).
 *
 * @example
 * const { key, limits } = await authenticateGatewayKey({ presented: request.headers['x-api-key'], source: request.ip, deps, log: request.log })
 * // → the key's record and its plan's limits; GatewayProblem 'missing_api_key' | 'invalid_api_key' | 'quota_exceeded' otherwise
 */
export async function authenticateGatewayKey({
  presented,
  source,
  deps,
  log,
}: AuthenticateGatewayKeyParameters): Promise<{ key: ApiKeyRecord; limits: PlanLimits }> {
  if (presented === undefined || presented === '')
    throw new GatewayProblem('missing_api_key', { detail: 'The x-api-key header is missing.' })
  if (typeof presented !== 'string') throw new GatewayProblem('invalid_api_key', { detail: 'Send exactly one x-api-key header.' })
  const parsed = parseApiKey(presented)
  if (!parsed) throw new GatewayProblem('invalid_api_key', { detail: 'The key is malformed.' })
  // Charged to the source only when the database is read (a cached prefix, or one whose read is
  // under way, costs nothing): the store calls this just before its read.
  const admit = async () => {
    const lookup = await deps.limiter.consume([
      {
        policy: {
          kind: 'window',
          name: 'key_lookups',
          key: `lookups:${source}`,
          limit: ceilings.uncachedKeyLookups.perSourcePerMinute,
          windowMs: 60_000,
        },
        group: 'ceiling',
        cost: 1,
      },
    ])
    if (!lookup.allowed) {
      throw new GatewayProblem('quota_exceeded', {
        detail: 'Too many lookups of unknown keys from this address.',
        retryAfterSec: lookup.retryAfterMs / 1000,
        violatedPolicies: ['key_lookups'],
      })
    }
  }
  const { record } = await deps.keys.lookup(parsed.prefix, admit)
  const verdict = deps.keys.verify(parsed, record)
  if ('refusal' in verdict) throw new GatewayProblem('invalid_api_key', { detail: REFUSALS[verdict.refusal] })
  const key = verdict.record
  if (deps.environment === 'live' && key.environment !== 'live')
    throw new GatewayProblem('invalid_api_key', { detail: 'A test key is not accepted by a live deployment.' })
  const limits = limitsOf(key)
  if (!limits) {
    log.error({ keyPrefix: key.prefix, plan: key.plan }, 'a key whose stored plan is not known was refused')
    throw new GatewayProblem('invalid_api_key', { detail: "The key's plan cannot be verified; ask the operator to reissue it." })
  }
  return { key, limits }
}
