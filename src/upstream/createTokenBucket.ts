export type TokenBucket = {
  /** Whole tokens available now. */
  available: () => number
  /** Takes `n` tokens if they are all there (true), else takes none (false). */
  tryTake: (n?: number) => boolean
  /** Milliseconds until `n` tokens are available (0 when they are). */
  msUntil: (n?: number) => number
  /** Requests per second and burst, as configured. */
  readonly ratePerSec: number
  readonly capacity: number
}

export type CreateTokenBucketParameters = {
  /** Sustained rate: tokens added per second (may be fractional, e.g. 0.5). */
  ratePerSec: number
  /** Most tokens held at once (the burst); at least 1. */
  capacity: number
  now?: () => number
}

/**
 * A token bucket: one token per upstream request, refilled continuously at `ratePerSec` up to
 * `capacity`. Full at creation. A refill is computed from the clock on each call, so an idle bucket
 * costs nothing. One per upstream, sized to its published free tier (docs/upstreams.md).
 *
 * @example
 * const bucket = createTokenBucket({ ratePerSec: 1, capacity: 1 }) // 1inch's free tier
 * bucket.tryTake() // true
 * bucket.tryTake() // false: the next token comes in 1000 ms
 */
export function createTokenBucket({ ratePerSec, capacity, now = Date.now }: CreateTokenBucketParameters): TokenBucket {
  if (!(ratePerSec > 0) || !(capacity >= 1))
    throw new RangeError(`token bucket: ratePerSec must be > 0 and capacity >= 1 (got ${ratePerSec}, ${capacity})`)
  let tokens = capacity
  let at = now()
  const refill = () => {
    const t = now()
    if (t > at) tokens = Math.min(capacity, tokens + ((t - at) * ratePerSec) / 1000)
    at = t
  }
  // Tokens are fractional while refilling; a hair of float error must not cost a whole request.
  const EPSILON = 1e-9
  return {
    ratePerSec,
    capacity,
    available: () => {
      refill()
      return Math.floor(tokens + EPSILON)
    },
    tryTake: (n = 1) => {
      refill()
      if (tokens + EPSILON < n) return false
      tokens = Math.max(0, tokens - n)
      return true
    },
    msUntil: (n = 1) => {
      refill()
      if (tokens + EPSILON >= n) return 0
      if (n > capacity) return Infinity
      return Math.ceil(((n - tokens) * 1000) / ratePerSec)
    },
  }
}
