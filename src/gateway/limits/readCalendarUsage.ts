import type { SqlDatabase } from '../store/SqlDatabase.ts'

/**
 * A key's units this UTC day and month as the daily summaries hold them (what the limiter's
 * calendar counters are seeded from after a restart).
 *
 * @example
 * await readCalendarUsage({ db, keyPrefix: 'abcdefghijkl', now: Date.parse('2026-11-26T10:00:00Z') })
 * // → { day: 8, month: 120 }: the summary rows of 2026-11-26 and of 2026-11-01..26
 */
export async function readCalendarUsage({
  db,
  keyPrefix,
  now,
}: {
  db: SqlDatabase
  keyPrefix: string
  now: number
}): Promise<{ day: number; month: number }> {
  const today = new Date(now).toISOString().slice(0, 10)
  const rows = await db.query<{ day: string; units: number }>('SELECT day, units FROM usage_daily WHERE key_prefix = $1 AND day >= $2', [
    keyPrefix,
    `${today.slice(0, 7)}-01`,
  ])
  let day = 0
  let month = 0
  for (const r of rows) {
    month += Number(r.units)
    if (r.day === today) day += Number(r.units)
  }
  return { day, month }
}
