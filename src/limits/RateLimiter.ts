/** What one hit was answered. */
export type RateLimitDecision =
  | { allowed: true; limit: number; windowSec: number; remaining: number }
  | {
      allowed: false
      limit: number
      windowSec: number
      /** Seconds until the oldest hit leaves the window, at least 1. */ retryAfterSec: number
    }

/**
 * A sliding-window limiter: every admitted hit is a timestamp; a key may hold at most `limit`
 * timestamps younger than `windowSec`. Refused hits are not recorded (a client that keeps hammering
 * is let back in as soon as its oldest admitted hit leaves the window). Backends: memory
 * (`createMemoryRateLimiter`); a Redis backend implements the same interface.
 */
export interface RateLimiter {
  readonly limit: number
  readonly windowSec: number
  /** Counts a hit for `key` when admitted; the check and the record are one atomic step. */
  hit(key: string): Promise<RateLimitDecision>
  close(): Promise<void>
}
