/** A plan's limits (spec §8): weighted units per minute, burst per second, per UTC day and month, largest page. */
export type PlanLimits = {
  unitsPerMinute: number
  burstPerSecond: number
  daily: number
  monthly: number
  maxPage: number
}

/** The plans of spec §8. Partner limits are custom, per key (`api_keys.custom_limits`). */
export const plans = {
  playground: { unitsPerMinute: 60, burstPerSecond: 20, daily: 2_500, monthly: 50_000, maxPage: 50 },
  developer: { unitsPerMinute: 300, burstPerSecond: 20, daily: 25_000, monthly: 500_000, maxPage: 100 },
  builder: { unitsPerMinute: 1_200, burstPerSecond: 100, daily: 250_000, monthly: 5_000_000, maxPage: 200 },
} as const satisfies Record<string, PlanLimits>

/** Every plan name: the three of `plans` and `partner` (custom limits per key). */
export const PLAN_NAMES = ['playground', 'developer', 'builder', 'partner'] as const
export type PlanName = (typeof PLAN_NAMES)[number]

/** A new key's plan (spec §5.5). */
export const DEFAULT_PLAN: PlanName = 'developer'

/** The largest page any route serves, whatever the plan (a Partner plan's `maxPage` is capped to it). */
export const MAX_PAGE_LIMIT = 500
