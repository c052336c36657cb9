import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { openDatabase } from '../store/openDatabase.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { parseApiKey } from './apiKeyFormat.ts'
import { createKeyStore, KEY_CACHE_TTL_MS, UNKNOWN_PREFIX_TTL_MS } from './createKeyStore.ts'

// The key store's caches (spec §5.4) on a clock the test moves: a known key's record is served
// from the cache for at most 5 s (a revocation takes effect within 5 s), an unknown prefix is
// remembered for 2 s (a key created meanwhile is found after 2 s at most).

let dir: string
let db: SqlDatabase
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-keys-'))
  db = await openDatabase({ url: join(dir, 'keys.sqlite') })
})
afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('a revoked key passes from the cache for under 5 s, then is refused; the cache is refreshed from the database', async () => {
  let t = 1_700_000_000_000
  const keys = createKeyStore({ db, now: () => t })
  const { key, record } = await keys.create({ plan: 'developer', scopes: ['tokens:read'], owner: 'a@example.com' })
  const parsed = parseApiKey(key)!
  assert.equal((await keys.lookup(parsed.prefix)).cached, false)
  assert.deepEqual(keys.verify(parsed, (await keys.lookup(parsed.prefix)).record), { record: (await keys.lookup(parsed.prefix)).record })
  assert.equal((await keys.lookup(parsed.prefix)).cached, true)
  await keys.setStatus(record.prefix, 'revoked')
  t += KEY_CACHE_TTL_MS - 1
  const stale = await keys.lookup(parsed.prefix)
  assert.equal(stale.cached, true)
  assert.ok('record' in keys.verify(parsed, stale.record), 'still the cached (active) record')
  t += 1
  const fresh = await keys.lookup(parsed.prefix)
  assert.equal(fresh.cached, false)
  assert.deepEqual(keys.verify(parsed, fresh.record), { refusal: 'revoked' })
})

test('an unknown prefix is remembered for 2 s; a wrong secret, another environment, inactive and expired keys are refused', async () => {
  let t = 1_700_000_000_000
  const keys = createKeyStore({ db, now: () => t })
  const unknown = parseApiKey('gw_live_abcdefghijkl_00112233445566778899aabbccddeeff')!
  assert.deepEqual(keys.verify(unknown, (await keys.lookup(unknown.prefix)).record), { refusal: 'unknown' })
  assert.equal(keys.isCached(unknown.prefix), true)
  t += UNKNOWN_PREFIX_TTL_MS
  assert.equal(keys.isCached(unknown.prefix), false)
  const { key } = await keys.create({
    plan: 'builder',
    scopes: ['tokens:read'],
    owner: 'b@example.com',
    expiresAt: new Date(t + 1000).toISOString(),
  })
  const parsed = parseApiKey(key)!
  const { record } = await keys.lookup(parsed.prefix)
  assert.deepEqual(keys.verify({ ...parsed, secret: parsed.secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }, record), {
    refusal: 'secret',
  })
  assert.deepEqual(keys.verify({ ...parsed, environment: 'test' }, record), { refusal: 'secret' })
  assert.ok('record' in keys.verify(parsed, record))
  t += 1000
  assert.deepEqual(keys.verify(parsed, record), { refusal: 'expired' })
  await keys.setStatus(parsed.prefix, 'inactive')
  t += KEY_CACHE_TTL_MS
  assert.deepEqual(keys.verify(parsed, (await keys.lookup(parsed.prefix)).record), { refusal: 'inactive' })
})

test('a Partner key needs its custom limits; only the SHA-256 of the secret is stored', async () => {
  const keys = createKeyStore({ db })
  await assert.rejects(keys.create({ plan: 'partner', scopes: ['tokens:read'], owner: 'c@example.com' }), /custom limits/)
  const { key, record } = await keys.create({
    plan: 'partner',
    customLimits: { unitsPerMinute: 5000, burstPerSecond: 200, daily: 1e6, monthly: 2e7, maxPage: 200 },
    scopes: ['tokens:read'],
    owner: 'c@example.com',
  })
  const rows = await db.query<Record<string, string>>('SELECT * FROM api_keys WHERE prefix = $1', [record.prefix])
  assert.ok(!Object.values(rows[0]).some((v) => typeof v === 'string' && v.includes(parseApiKey(key)!.secret)))
  assert.equal(record.customLimits?.unitsPerMinute, 5000)
})

test('concurrent requests for a lapsed key share one database read: only the first counts as uncached', async () => {
  let t = 1_700_000_000_000
  const keys = createKeyStore({ db, now: () => t })
  const { key } = await keys.create({ plan: 'developer', scopes: ['tokens:read'], owner: 'd@example.com' })
  const { prefix } = parseApiKey(key)!
  const first = keys.lookup(prefix)
  assert.equal(keys.isCached(prefix), true, 'a read under way answers the others')
  const others = await Promise.all([keys.lookup(prefix), keys.lookup(prefix)])
  assert.equal((await first).cached, false)
  assert.deepEqual(
    others.map((o) => o.cached),
    [true, true],
  )
  assert.deepEqual(
    others.map((o) => o.record?.prefix),
    [prefix, prefix],
  )
  t += KEY_CACHE_TTL_MS
  assert.equal(keys.isCached(prefix), false)
})

test('the admission runs once per database read, before it: concurrent lookups join; a refused admission refuses only its own caller', async () => {
  const keys = createKeyStore({ db })
  const { key } = await keys.create({ plan: 'developer', scopes: ['tokens:read'], owner: 'e@example.com' })
  const { prefix } = parseApiKey(key)!
  let admitted = 0
  // An asynchronous admission (as the shared limiter's is): the others arrive while it runs.
  const admit = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    admitted++
  }
  const all = await Promise.all(Array.from({ length: 20 }, () => keys.lookup(prefix, admit)))
  assert.equal(admitted, 1)
  assert.equal(all.filter((l) => !l.cached).length, 1)
  // Refused (the source's ceiling): the caller gets the refusal; a joiner then tries on its own.
  const other = parseApiKey((await keys.create({ plan: 'developer', scopes: ['tokens:read'], owner: 'f@example.com' })).key)!.prefix
  const refused = keys.lookup(other, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    throw new Error('refused')
  })
  const joiner = keys.lookup(other, async () => {})
  await assert.rejects(refused, /refused/)
  assert.equal((await joiner).record?.prefix, other)
})
