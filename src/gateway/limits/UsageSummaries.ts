/**
 * The usage summaries (spec §8 rule 5: per API key and UTC hour and day, the units of admitted
 * requests, their count, and refusals) as the gateway's hooks see them. The counting itself is
 * the limiter's (`WeightedLimiter.consume` with a `UsageTally`, in the step that decides); this
 * side writes the counts into the database and reads a key's day and month back.
 * - Memory engine (`createUsageRecorder`): counted in this process, written every few seconds.
 * - Redis engine (`createRedisUsageSummaries`): counted in Redis by the limiter's script,
 *   copied into the database by any instance.
 */
export type UsageSummaries = {
  /** A key's units so far this UTC day and month (the limiter's calendar counters are seeded from it). */
  load: (keyPrefix: string) => Promise<{ day: number; month: number }>
  /** Writes the counts not yet in the database into the hourly and daily summaries. */
  flush: () => Promise<void>
  /** Stops the timer and flushes. */
  close: () => Promise<void>
}
