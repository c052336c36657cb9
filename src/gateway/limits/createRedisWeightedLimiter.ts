import { randomBytes } from 'node:crypto'
import type { SharedRedis } from '../../limits/redis/connectRedis.ts'
import type { LimitDecision, PolicyCharge, PolicyState } from './LimitPolicy.ts'
import type { UsageTally, WeightedLimiter } from './WeightedLimiter.ts'
import { usageSummaryKeys } from './usageSummaryKeys.ts'
import { LEASE_SCRIPT, WEIGHTED_LIMITER_SCRIPT } from './weightedLimiterScript.ts'

/** A concurrency lease's life in Redis without renewal: past it, a killed instance's slot is free again. */
export const LEASE_TTL_MS = 30_000

export type CreateRedisWeightedLimiterParameters = {
  redis: SharedRedis
  /** Key prefix (the swap service's limiter shares the Redis under `swap:`). */
  prefix?: string
  /** How long a lease outlives its last renewal (default 30 s); a live request renews it every third of that. */
  leaseTtlMs?: number
  /** A clock for tests; default Redis's own `TIME` (every instance then counts the same windows). */
  now?: () => number
}

/**
 * The gateway's limiter shared by every instance on one Redis: each decision is one run of
 * `WEIGHTED_LIMITER_SCRIPT` (all of a request's policies checked and taken atomically on the
 * server, all or nothing), the same arithmetic as the memory engine. Every key carries one hash
 * tag, `{gw}`, so the script's keys share a slot on a Redis Cluster (the gateway's limits then
 * live on one shard). A request's concurrency leases expire `leaseTtlMs` after their last renewal,
 * so an instance killed mid-request frees its slots by then; a live request renews them every
 * `leaseTtlMs / 3` until `release`. Redis unreachable or slow: `SharedStateUnavailableError`
 * (503), never an admission without its limits.
 *
 * @example
 * const limiter = createRedisWeightedLimiter({ redis })
 * const decision = await limiter.consume(planCharges({ keyPrefix: 'abcdefghijkl', limits: plans.developer, units: 8 }))
 * // → { allowed: true, states: [burst, minute, day, month], release }, counted once across every instance
 */
export function createRedisWeightedLimiter({
  redis,
  prefix = 'gw:',
  leaseTtlMs = LEASE_TTL_MS,
  now,
}: CreateRedisWeightedLimiterParameters): WeightedLimiter {
  const keyOf = (key: string) => `${prefix}{gw}:${key}`
  const clock = () => (now ? String(now()) : '')

  const run = async (mode: 'consume' | 'peek' | 'seed', charges: readonly PolicyCharge[], leaseId = '', usage?: UsageTally) => {
    const keys = charges.flatMap((c) => [keyOf(c.policy.key), `${keyOf(c.policy.key)}:aux`])
    const args = [mode, clock(), leaseId, String(leaseTtlMs)]
    for (const { policy, cost } of charges) {
      const [a, b] =
        policy.kind === 'burst'
          ? [policy.perSecond, '']
          : policy.kind === 'window'
            ? [policy.limit, policy.windowMs]
            : policy.kind === 'calendar'
              ? [policy.limit, policy.period]
              : [policy.limit, '']
      args.push(policy.kind, String(cost), String(a), String(b))
    }
    // The request's usage line, last: counted by the same script run as the decision.
    if (usage) {
      const summary = usageSummaryKeys(prefix, usage.keyPrefix)
      keys.push(summary.counts, summary.index)
      args.push('usage', String(usage.units), usage.keyPrefix, '')
    }
    const out = (await redis.run((c) => c.eval(WEIGHTED_LIMITER_SCRIPT, { keys, arguments: args }))) as number[]
    const rows = charges.map((charge, i) => {
      const [fits, retryAfterMs, limit, remaining, resetSec, windowSec] = out.slice(2 + 6 * i, 8 + 6 * i)
      const state: PolicyState = { name: charge.policy.name, group: charge.group, limit, remaining, resetSec, windowSec }
      return { fits: fits === 1, retryAfterMs, state }
    })
    return { allowed: out[0] === 1, retryAfterMs: out[1], rows }
  }

  const leases = (keys: string[], leaseId: string, action: 'release' | 'renew') =>
    redis.run((c) => c.eval(LEASE_SCRIPT, { keys, arguments: [action, leaseId, String(leaseTtlMs), clock()] }))

  return {
    consume: async (charges, usage): Promise<LimitDecision> => {
      const leaseKeys = charges.filter((c) => c.policy.kind === 'concurrency').map((c) => keyOf(c.policy.key))
      const leaseId = leaseKeys.length > 0 ? randomBytes(12).toString('hex') : ''
      const { allowed, retryAfterMs, rows } = await run('consume', charges, leaseId, usage)
      const states = rows.map((r) => r.state)
      if (!allowed) {
        const violated = rows.flatMap((r, i) =>
          r.fits ? [] : [{ name: charges[i].policy.name, group: charges[i].group, retryAfterMs: r.retryAfterMs }],
        )
        return { allowed: false, states, violated, retryAfterMs }
      }
      if (leaseKeys.length === 0) return { allowed: true, states, release: async () => {} }
      // Renewed while the request runs; a failed renewal is left to the next (or to the TTL).
      const renewal = setInterval(() => void leases(leaseKeys, leaseId, 'renew').catch(() => {}), Math.max(1, leaseTtlMs / 3))
      renewal.unref()
      let released = false
      return {
        allowed: true,
        states,
        release: async () => {
          if (released) return
          released = true
          clearInterval(renewal)
          // Redis unreachable now: the leases end at their TTL instead.
          await leases(leaseKeys, leaseId, 'release').catch(() => {})
        },
      }
    },
    peek: async (charges) => (await run('peek', charges)).rows.map((r) => r.state),
    seedCalendar: async (policy, used) => {
      await run('seed', [{ policy, group: 'plan', cost: used }])
    },
    sweep: () => {},
  }
}
