import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, test } from 'vitest'
import type { Address } from 'viem'
import type { PoolRef } from '../../adapters/PoolAdapter.ts'
import { createSqliteMarketStore } from './createSqliteMarketStore.ts'

const dir = mkdtempSync(join(tmpdir(), 'market-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const twocrypto: PoolRef = {
  id: address(1),
  dex: 'CURVE',
  emitter: address(1),
  curveTemplate: 'twocrypto-ng',
  marginBps: 2,
}
const dodo: PoolRef = { id: address(2), dex: 'DODO_V2', emitter: address(2), dodo: { variant: 'dsp', baseToken: address(9) } }
const v2: PoolRef = { id: address(3), dex: 'UNIV2', emitter: address(3) }

test('what a discovery event taught a ref (a CryptoSwap template, a DODO variant) is read back after a restart', () => {
  const path = join(dir, 'refs.sqlite')
  const store = createSqliteMarketStore({ path, chainId: 8453 })
  store.save({ pools: [{ ref: twocrypto }, { ref: dodo }, { ref: v2, skipped: 'shallow' }], cursors: [] })
  store.close()
  const reopened = createSqliteMarketStore({ path, chainId: 8453 })
  assert.deepEqual(reopened.pools(), [{ ref: twocrypto }, { ref: dodo }, { ref: v2, skipped: 'shallow' }])
  reopened.close()
})

test('an older file (pools without refs): its CURVE pools and cursors are dropped to be discovered again with their templates, the rest kept', () => {
  const path = join(dir, 'older.sqlite')
  const db = new Database(path)
  db.exec(`
    CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE cursors (source TEXT NOT NULL, dex TEXT NOT NULL, from_block TEXT NOT NULL, last_scanned TEXT NOT NULL, PRIMARY KEY (source, dex));
    CREATE TABLE pools (id TEXT PRIMARY KEY, dex TEXT NOT NULL, emitter TEXT NOT NULL, pool_key TEXT, skipped TEXT);
    CREATE TABLE scanned_ahead (source TEXT NOT NULL, dex TEXT NOT NULL, from_block TEXT NOT NULL, to_block TEXT NOT NULL);
    INSERT INTO meta VALUES ('chainId', '8453'), ('schemaVersion', '1');
    INSERT INTO pools VALUES ('${twocrypto.id}', 'CURVE', '${twocrypto.emitter}', NULL, NULL), ('${v2.id}', 'UNIV2', '${v2.emitter}', NULL, NULL);
    INSERT INTO cursors VALUES ('${address(7)}', 'CURVE', '1', '500'), ('${address(8)}', 'UNIV2', '1', '500');
    INSERT INTO scanned_ahead VALUES ('${address(7)}', 'CURVE', '600', '700');
  `)
  db.close()
  const store = createSqliteMarketStore({ path, chainId: 8453 })
  assert.deepEqual(store.pools(), [{ ref: v2 }], 'the UNIV2 pool kept (read from its columns), the CURVE one gone')
  assert.deepEqual(
    store.cursors().map((c) => `${c.dex} ${c.lastScanned}`),
    ['UNIV2 500'],
    "CURVE's cursor gone: its deployments are scanned again from their start blocks",
  )
  store.save({ pools: [{ ref: twocrypto }], cursors: [] })
  store.close()
  const reopened = createSqliteMarketStore({ path, chainId: 8453 })
  assert.deepEqual(reopened.pools(), [{ ref: twocrypto }, { ref: v2 }], 'rediscovered with its template, and not dropped again')
  reopened.close()
})
