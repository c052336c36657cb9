import type { LimitDecision, LimitPolicy, PolicyCharge, PolicyState } from './LimitPolicy.ts'

/** A request's line in the usage summaries (spec §8 rule 5): its key and the units it takes when admitted. */
export type UsageTally = { keyPrefix: string; units: number }

/**
 * The gateway's limiter engine: in this process's memory (`createWeightedLimiter`, the embedded
 * default) or shared by every instance on one Redis (`createRedisWeightedLimiter`, `REDIS_URL`).
 * Asynchronous because the shared engine answers over the network; a shared engine that cannot
 * be reached throws `SharedStateUnavailableError` (a 503), never admits.
 */
export type WeightedLimiter = {
  /**
   * Checks every charge and, only if all of them fit, takes them all (one atomic step: no other
   * request's decision interleaves, so concurrent requests are counted exactly and a refused
   * request takes nothing from any policy). The returned `release` ends the request's
   * concurrency leases. With `usage`, the same step counts the request in the usage summaries
   * (its units when admitted, a refusal otherwise), so no admitted request goes uncounted.
   */
  consume: (charges: readonly PolicyCharge[], usage?: UsageTally) => Promise<LimitDecision>
  /** Where the policies stand, taking nothing. */
  peek: (charges: readonly PolicyCharge[]) => Promise<PolicyState[]>
  /**
   * Seeds a calendar policy's usage for its current period from the usage summaries (after a
   * restart). The memory engine takes it; the shared engine only when it holds no count for the
   * period (its own count, when it has one, is the exact one).
   */
  seedCalendar: (policy: Extract<LimitPolicy, { kind: 'calendar' }>, used: number) => Promise<void>
  /** Drops the state of windows and bursts that are idle (a periodic sweep keeps memory bounded; Redis expires its own). */
  sweep: () => void
}
