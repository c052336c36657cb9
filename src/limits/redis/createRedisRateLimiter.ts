import type { RateLimitDecision, RateLimiter } from '../RateLimiter.ts'
import type { SharedRedis } from './connectRedis.ts'

/**
 * The sliding window as one Lua script, atomic on the Redis server: the clock is Redis's own
 * (`TIME`, so instances with skewed clocks count the same window), hits older than the window
 * leave the key's sorted set, and the hit is recorded only when admitted. A member is the time and
 * a per-key sequence number, so two hits in one millisecond are two members.
 * Answers {1, remaining} or {0, ms until the oldest hit leaves the window}.
 */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
local seq = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], now, now .. '-' .. seq)
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
return {1, limit - count - 1}
`

export type CreateRedisRateLimiterParameters = {
  redis: SharedRedis
  limit?: number
  windowSec?: number
  /** Key prefix (several services may share one Redis). */
  prefix?: string
}

/**
 * The sliding-window limiter shared by every instance on one Redis: the same contract as the
 * memory backend (`RateLimiter`), exact across instances under concurrency (the script runs
 * atomically). Redis unreachable: `hit` throws `SharedStateUnavailableError` (a 503), never admits.
 *
 * @example
 * const limiter = createRedisRateLimiter({ redis, limit: 120, windowSec: 60 })
 * const decision = await limiter.hit(apiKeyId)
 * // → { allowed: true, limit: 120, windowSec: 60, remaining: 119 } on a fresh key; past 120 hits { allowed: false, …, retryAfterSec: 12 }
 */
export function createRedisRateLimiter({
  redis,
  limit = 120,
  windowSec = 60,
  prefix = 'swap:',
}: CreateRedisRateLimiterParameters): RateLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer: ${limit}`)
  const windowMs = windowSec * 1000
  return {
    limit,
    windowSec,
    hit: async (key): Promise<RateLimitDecision> => {
      // One hash tag: both keys in the same slot on a Redis cluster.
      const base = `${prefix}rate:{${key}}`
      const [admitted, value] = (await redis.run((c) =>
        c.eval(SLIDING_WINDOW, { keys: [base, `${base}:seq`], arguments: [String(limit), String(windowMs)] }),
      )) as [number, number]
      if (admitted === 1) return { allowed: true, limit, windowSec, remaining: value }
      return { allowed: false, limit, windowSec, retryAfterSec: Math.max(1, Math.ceil(value / 1000)) }
    },
    close: async () => {},
  }
}
