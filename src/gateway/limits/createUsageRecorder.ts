import type { SqlDatabase } from '../store/SqlDatabase.ts'

type Pending = { units: number; requests: number; rejected: number }

export type UsageRecorder = {
  /** Counts one request of a key: its units when admitted, a refusal otherwise. */
  record: (keyPrefix: string, units: number, admitted: boolean) => void
  /** A key's units so far this UTC day and month: the summaries plus what is not yet written. */
  load: (keyPrefix: string) => Promise<{ day: number; month: number }>
  /** Writes the pending counts into the hourly and daily summaries. */
  flush: () => Promise<void>
  /** Stops the timer and flushes. */
  close: () => Promise<void>
}

/**
 * Usage summaries (spec §8 rule 5: "usage is summarized hourly and daily"): per key and UTC hour
 * and day, the units of admitted requests, their count, and refusals. Counted in memory and
 * written every `flushIntervalMs` (and on close), so a restart loses at most that much (a failed
 * write keeps its counts for the next flush); the
 * limiter reloads a key's day and month from here when it first sees the key.
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
      const rows = await db.query<{ day: string; units: number }>(
        'SELECT day, units FROM usage_daily WHERE key_prefix = $1 AND day >= $2',
        [keyPrefix, `${today.slice(0, 7)}-01`],
      )
      let day = 0
      let month = 0
      for (const r of rows) {
        month += Number(r.units)
        if (r.day === today) day += Number(r.units)
      }
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
