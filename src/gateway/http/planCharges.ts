import type { PolicyCharge } from '../limits/LimitPolicy.ts'
import type { PlanLimits } from '../limits/plans.ts'

/**
 * A key's plan policies for a request of `units` (spec §8): burst per second, units per sliding
 * minute, per UTC day and per UTC month. Their names are what `RateLimit-Policy` lists.
 *
 * @example
 * limiter.consume(planCharges({ keyPrefix: 'abcdefghijkl', limits: plans.developer, units: 8 }))
 * // charges 'burst' (per second), 'minute' (window), 'day' and 'month' (UTC calendar), 8 units each
 */
export function planCharges({ keyPrefix, limits, units }: { keyPrefix: string; limits: PlanLimits; units: number }): PolicyCharge[] {
  return [
    { policy: { kind: 'burst', name: 'burst', key: `burst:${keyPrefix}`, perSecond: limits.burstPerSecond }, group: 'plan', cost: units },
    {
      policy: { kind: 'window', name: 'minute', key: `minute:${keyPrefix}`, limit: limits.unitsPerMinute, windowMs: 60_000 },
      group: 'plan',
      cost: units,
    },
    { policy: { kind: 'calendar', name: 'day', key: `day:${keyPrefix}`, limit: limits.daily, period: 'day' }, group: 'plan', cost: units },
    {
      policy: { kind: 'calendar', name: 'month', key: `month:${keyPrefix}`, limit: limits.monthly, period: 'month' },
      group: 'plan',
      cost: units,
    },
  ]
}
