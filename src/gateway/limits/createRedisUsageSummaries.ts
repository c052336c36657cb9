import type { SharedRedis } from '../../limits/redis/connectRedis.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { readCalendarUsage } from './readCalendarUsage.ts'
import type { UsageSummaries } from './UsageSummaries.ts'
import { usageSummaryKeys } from './usageSummaryKeys.ts'

/** PostgreSQL advisory lock id of the copy (one copy at a time, so each day's sum sees every hour committed before it). */
const USAGE_COPY_LOCK = 8453025

/**
 * Deletes the copied fields of closed hours (before the current hour on the clock: no script
 * counts into them any more) whose value is still the one copied, then drops the key prefix from
 * the index when its hash is empty. KEYS: the counts hash, the index. ARGV: the key prefix, the
 * clock (`''`: Redis's `TIME`), then field, value pairs as copied.
 */
const PRUNE_SCRIPT = `
local now
if ARGV[2] ~= '' then now = tonumber(ARGV[2]) else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local hour = math.floor(now / 3600000)
for i = 3, #ARGV, 2 do
  local field = ARGV[i]
  if tonumber(string.match(field, '^(%d+):')) < hour and redis.call('HGET', KEYS[1], field) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], field)
  end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 1
`

type Counts = { units: number; requests: number; rejected: number }

/**
 * The usage summaries of a fleet on Redis (`REDIS_URL`). The counts are taken in Redis by the
 * limiter's script in the same atomic step as each decision (`WEIGHTED_LIMITER_SCRIPT`, kind
 * `usage`), so a request is counted exactly when it is admitted or refused, and an instance
 * killed at any moment loses no count. Every `flushIntervalMs` (and on close) any instance copies
 * them into the database's hourly and daily summaries: the hourly rows take Redis's running
 * totals (never lowered: a copy that read earlier cannot undo a later one), each touched day is
 * summed again from its hours, and only then are the fields of closed hours removed from Redis
 * (if still equal to what was copied). A copier killed mid-way leaves the counts in Redis for
 * the next copy, by any instance. Counts not copied within 7 days expire (no instance ran).
 *
 * @example
 * const usage = createRedisUsageSummaries({ redis, db })
 * await usage.flush()
 * // usage_hourly / usage_daily now hold every count the fleet's limiter took so far
 */
export function createRedisUsageSummaries({
  redis,
  db,
  prefix = 'gw:',
  flushIntervalMs = 5_000,
  now,
}: {
  redis: SharedRedis
  db: SqlDatabase
  /** The limiter's Redis key prefix. */
  prefix?: string
  flushIntervalMs?: number
  /** A clock for tests, as the limiter's (default Redis's `TIME`); also the day `load` reads. */
  now?: () => number
}): UsageSummaries {
  const index = usageSummaryKeys(prefix, '').index
  const flush = async () => {
    const prefixes = (await redis.run((c) => c.sMembers(index))).sort()
    if (prefixes.length === 0) return
    const hashes = await Promise.all(prefixes.map((p) => redis.run((c) => c.hGetAll(usageSummaryKeys(prefix, p).counts))))
    const hours = new Map<string, Counts>()
    for (const [i, hash] of hashes.entries()) {
      for (const [field, value] of Object.entries(hash)) {
        const [hourId, kind] = field.split(':')
        const hour = new Date(Number(hourId) * 3_600_000).toISOString().slice(0, 13)
        const key = `${prefixes[i]} ${hour}`
        const counts = hours.get(key) ?? { units: 0, requests: 0, rejected: 0 }
        counts[kind === 'u' ? 'units' : kind === 'n' ? 'requests' : 'rejected'] = Number(value)
        hours.set(key, counts)
      }
    }
    await db.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [USAGE_COPY_LOCK])
      const days = new Set<string>()
      for (const [key, c] of [...hours].sort(([x], [y]) => (x < y ? -1 : 1))) {
        const [keyPrefix, hour] = key.split(' ')
        await tx.execute(
          `INSERT INTO usage_hourly (key_prefix, hour, units, requests, rejected) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (key_prefix, hour) DO UPDATE SET
             units = CASE WHEN excluded.units > usage_hourly.units THEN excluded.units ELSE usage_hourly.units END,
             requests = CASE WHEN excluded.requests > usage_hourly.requests THEN excluded.requests ELSE usage_hourly.requests END,
             rejected = CASE WHEN excluded.rejected > usage_hourly.rejected THEN excluded.rejected ELSE usage_hourly.rejected END`,
          [keyPrefix, hour, c.units, c.requests, c.rejected],
        )
        days.add(`${keyPrefix} ${hour.slice(0, 10)}`)
      }
      for (const key of days) {
        const [keyPrefix, day] = key.split(' ')
        await tx.execute(
          `INSERT INTO usage_daily (key_prefix, day, units, requests, rejected)
           SELECT key_prefix, substr(hour, 1, 10), SUM(units), SUM(requests), SUM(rejected) FROM usage_hourly
           WHERE key_prefix = $1 AND hour LIKE $2 GROUP BY key_prefix, substr(hour, 1, 10)
           ON CONFLICT (key_prefix, day) DO UPDATE SET units = excluded.units, requests = excluded.requests, rejected = excluded.rejected`,
          [keyPrefix, `${day}T%`],
        )
      }
    })
    for (const [i, hash] of hashes.entries()) {
      const keys = usageSummaryKeys(prefix, prefixes[i])
      await redis.run((c) =>
        c.eval(PRUNE_SCRIPT, {
          keys: [keys.counts, keys.index],
          arguments: [prefixes[i], now ? String(now()) : '', ...Object.entries(hash).flat()],
        }),
      )
    }
  }
  const timer = setInterval(() => void flush().catch(() => {}), flushIntervalMs)
  timer.unref()
  return {
    load: (keyPrefix) => readCalendarUsage({ db, keyPrefix, now: (now ?? Date.now)() }),
    flush,
    close: async () => {
      clearInterval(timer)
      await flush()
    },
  }
}
