import type { RateLimitDecision, RateLimiter } from './RateLimiter.ts'

export type CreateMemoryRateLimiterParameters = {
  /** Hits admitted per window and key (default 120). */
  limit?: number
  /** Window length in seconds (default 60). */
  windowSec?: number
  now?: () => number
}

/**
 * The in-process sliding-window limiter: per key, a ring of the admitted hits' timestamps. The
 * check and the record happen in one synchronous step, so concurrent requests are counted exactly
 * (Node runs one of them at a time). Memory: `limit` numbers per key that has been seen; keys are
 * API keys (a closed set), so the map stays bounded.
 *
 * @example
 * const limiter = createMemoryRateLimiter({ limit: 120, windowSec: 60 })
 * const decision = await limiter.hit(apiKeyId)
 * // → { allowed: true, limit: 120, windowSec: 60, remaining: 119 } on the key's first hit
 * if (!decision.allowed) reply.header('retry-after', decision.retryAfterSec).code(429)
 * // the 121st hit within 60 s: { allowed: false, limit: 120, windowSec: 60, retryAfterSec: 1..60 }
 */
export function createMemoryRateLimiter({
  limit = 120,
  windowSec = 60,
  now = Date.now,
}: CreateMemoryRateLimiterParameters = {}): RateLimiter & {
  hitSync: (key: string) => RateLimitDecision
} {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer: ${limit}`)
  if (!Number.isInteger(windowSec) || windowSec < 1) throw new RangeError(`windowSec must be a positive integer: ${windowSec}`)
  const windowMs = windowSec * 1000
  // A ring buffer per key: `start` is the oldest admitted hit still counted, `size` how many are.
  // Small limits get a preallocated ring; very large ones (benchmarks) grow on demand.
  const rings = new Map<string, { times: number[]; start: number; size: number }>()

  const hitSync = (key: string): RateLimitDecision => {
    const t = now()
    let ring = rings.get(key)
    if (!ring) {
      ring = { times: [], start: 0, size: 0 }
      rings.set(key, ring)
    }
    // Drop the hits that left the window.
    while (ring.size > 0 && ring.times[ring.start] <= t - windowMs) {
      ring.start = (ring.start + 1) % limit
      ring.size--
    }
    if (ring.size >= limit) {
      const oldest = ring.times[ring.start]
      return { allowed: false, limit, windowSec, retryAfterSec: Math.max(1, Math.ceil((oldest + windowMs - t) / 1000)) }
    }
    ring.times[(ring.start + ring.size) % limit] = t
    ring.size++
    return { allowed: true, limit, windowSec, remaining: limit - ring.size }
  }

  return {
    limit,
    windowSec,
    hitSync,
    hit: async (key) => hitSync(key),
    close: async () => {
      rings.clear()
    },
  }
}
