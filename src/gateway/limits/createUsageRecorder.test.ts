import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { openDatabase } from '../store/openDatabase.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { createUsageRecorder } from './createUsageRecorder.ts'

test('a flush that fails keeps its counts (also for load) and writes them with the next one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-usage-'))
  const real = await openDatabase({ url: join(dir, 'usage.sqlite') })
  let down = true
  const db: SqlDatabase = {
    ...real,
    dialect: real.dialect,
    transaction: (fn) => (down ? Promise.reject(new Error('database down')) : real.transaction(fn)),
  }
  try {
    const t = Date.parse('2026-11-26T10:00:00Z')
    const usage = createUsageRecorder({ db, now: () => t, flushIntervalMs: 3_600_000 })
    usage.record('abcdefghijkl', 8, true)
    usage.record('abcdefghijkl', 0, false)
    await assert.rejects(usage.flush(), /database down/)
    assert.deepEqual(await usage.load('abcdefghijkl'), { day: 8, month: 8 })
    usage.record('abcdefghijkl', 2, true)
    down = false
    await usage.flush()
    assert.deepEqual(await real.query('SELECT units, requests, rejected FROM usage_daily'), [{ units: 10, requests: 2, rejected: 1 }])
    assert.deepEqual(await real.query('SELECT hour, units FROM usage_hourly'), [{ hour: '2026-11-26T10', units: 10 }])
    assert.deepEqual(await usage.load('abcdefghijkl'), { day: 10, month: 10 })
    await usage.close()
  } finally {
    await real.close()
    rmSync(dir, { recursive: true, force: true })
  }
})
