import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { readCalendarUsage } from './readCalendarUsage.ts'
import type { UsageSummaries } from './UsageSummaries.ts'

type Pending = { units: number; requests: number; rejected: number }

export type UsageRecorder = UsageSummaries & {
  /** Counts one request of a key: its units when admitted, a refusal otherwise (the memory limiter's `onUsage`). */
  record: (keyPrefix: string, units: number, admitted: boolean) => void
}

/**
 * Usage summaries (spec §8 rule 5: "usage is summarized hourly and daily") of one instance on
 * the memory limiter (the embedded default, no `REDIS_URL`): per key and UTC hour and day, the
 * units of admitted requests, their count, and refusals. Counted in memory and written every
 * `flushIntervalMs` (and on close): a clean stop loses nothing, a killed process the counts of
 * its last `flushIntervalMs` (a failed write keeps its counts for the next flush). A fleet on
 * Redis has no such window (`createRedisUsageSummaries`). The limiter reloads a key's day and
 * month from here when it first sees the key.
 *
 * @example
 * const usage = createUsageRecorder({ db })
 * usage.record('abcdefghijkl', 8, true)
 * // 8 units (admitted) counted for the key's hour; written to the usage table at the next flush (within 5 s)
 */
export function createUsageRecorder({
  db,
  flushIntervalMs = 5_000,
  now = Date.now,
}: {
  db: SqlDatabase
  flushIntervalMs?: number
  now?: () => number
}): UsageRecorder {
  const pending = new Map<string, Pending>()
  /** The batches flushes are writing: still counted by `load` until committed (or put back). */
  const writing = new Set<[string, Pending][]>()
  const hourOf = (t: number) => new Date(t).toISOString().slice(0, 13)
  const flush = async () => {
    if (pending.size === 0) return
    const batch = [...pending.entries()]
    pending.clear()
    writing.add(batch)
    try {
      await writeBatch(batch)
    } catch (error) {
      // Not written (the database is down, a statement failed): the counts go back, added to what
      // arrived meanwhile, for the next flush. Nothing of a failed transaction was committed.
      for (const [key, p] of batch) {
        const now = pending.get(key) ?? { units: 0, requests: 0, rejected: 0 }
        pending.set(key, { units: now.units + p.units, requests: now.requests + p.requests, rejected: now.rejected + p.rejected })
      }
      throw error
    } finally {
      writing.delete(batch)
    }
  }
  const writeBatch = async (batch: [string, Pending][]) => {
    await db.transaction(async (tx) => {
      for (const [key, p] of batch) {
        const [prefix, hour] = key.split(' ')
        const values = [prefix, p.units, p.requests, p.rejected]
        await tx.execute(
          'INSERT INTO usage_hourly (key_prefix, hour, units, requests, rejected) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key_prefix, hour) DO UPDATE SET units = usage_hourly.units + excluded.units, requests = usage_hourly.requests + excluded.requests, rejected = usage_hourly.rejected + excluded.rejected',
          [values[0], hour, values[1], values[2], values[3]],
        )
        await tx.execute(
          'INSERT INTO usage_daily (key_prefix, day, units, requests, rejected) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key_prefix, day) DO UPDATE SET units = usage_daily.units + excluded.units, requests = usage_daily.requests + excluded.requests, rejected = usage_daily.rejected + excluded.rejected',
          [values[0], hour.slice(0, 10), values[1], values[2], values[3]],
        )
      }
    })
  }
  const timer = setInterval(() => void flush().catch(() => {}), flushIntervalMs)
  timer.unref()
  return {
    record: (keyPrefix, units, admitted) => {
      const key = `${keyPrefix} ${hourOf(now())}`
      const p = pending.get(key) ?? { units: 0, requests: 0, rejected: 0 }
      if (admitted) {
        p.units += units
        p.requests++
      } else p.rejected++
      pending.set(key, p)
    },
    load: async (keyPrefix) => {
      const today = new Date(now()).toISOString().slice(0, 10)
      let { day, month } = await readCalendarUsage({ db, keyPrefix, now: now() })
      for (const [key, p] of [...pending, ...[...writing].flat()]) {
        const [prefix, hour] = key.split(' ')
        if (prefix !== keyPrefix) continue
        if (hour.slice(0, 7) === today.slice(0, 7)) month += p.units
        if (hour.slice(0, 10) === today) day += p.units
      }
      return { day, month }
    },
    flush,
    close: async () => {
      clearInterval(timer)
      await flush()
    },
  }
}
