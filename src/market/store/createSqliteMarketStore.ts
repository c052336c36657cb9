import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import type { Address } from 'viem'
import type { DexId } from '../../../bindings/types.ts'
import type { PoolRef } from '../../adapters/PoolAdapter.ts'
import { MarketError } from '../errors.ts'
import type { TokenVerdict } from '../tokens/judgeTokenBehaviour.ts'
import type { BlockRange, MarketStore, ScanCursor, StoredDepth, StoredPool, StoredToken } from './MarketStore.ts'

/** Bumped when the tables change; an older file is refused with a message, never migrated silently. */
const SCHEMA_VERSION = '1'

export type CreateSqliteMarketStoreParameters = {
  /** The SQLite file (created with its directory when missing). */
  path: string
  /** The chain the file belongs to: a file of another chain is refused. */
  chainId: number
}

/**
 * The discovered pool set and the scan cursors in a SQLite file (better-sqlite3, WAL mode), so a
 * restart does not rescan a chain from its start blocks. Block numbers are stored as decimal text
 * (SQLite integers are 64-bit signed; text keeps them exact and readable). A V4 pool's key is
 * stored as JSON, and so is every pool's whole ref (`pools.ref`): what its discovery event taught
 * (a Curve pool's CryptoSwap template, which no read of the pool gives back) survives a restart.
 * The tokens table (verdicts of `judgeTokenBehaviour`) and the ranges scanned past each cursor
 * (`scanned_ahead`) and the depths of pools below the floor (`shallow_pools`) and the refs were
 * added without a schema bump: an older file simply has none yet (its tokens are judged on the next
 * read; its cursors have nothing scanned ahead; every pool is read at the next start). An older
 * file's CURVE pools and cursors are dropped when the refs are added, so CURVE's deployments are
 * scanned again and their pools stored with their templates.
 *
 * @example
 * const store = createSqliteMarketStore({ path: 'var/market-8453.sqlite', chainId: 8453 })
 * store.save({ pools: [{ ref }], cursors: [{ source, dex: 'UNIV2', fromBlock: 1n, lastScanned: 100n }] })
 * // store.pools() now lists ref, store.cursors() the UNIV2 cursor at block 100 (kept across restarts)
 */
export function createSqliteMarketStore({ path, chainId }: CreateSqliteMarketStoreParameters): MarketStore {
  mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS cursors (source TEXT NOT NULL, dex TEXT NOT NULL, from_block TEXT NOT NULL, last_scanned TEXT NOT NULL, PRIMARY KEY (source, dex));
    CREATE TABLE IF NOT EXISTS pools (id TEXT PRIMARY KEY, dex TEXT NOT NULL, emitter TEXT NOT NULL, pool_key TEXT, skipped TEXT, ref TEXT);
    CREATE TABLE IF NOT EXISTS tokens (address TEXT PRIMARY KEY, kind TEXT NOT NULL, reason TEXT, block TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS scanned_ahead (source TEXT NOT NULL, dex TEXT NOT NULL, from_block TEXT NOT NULL, to_block TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS shallow_pools (id TEXT PRIMARY KEY, block TEXT NOT NULL, depth TEXT);
  `)
  const poolColumns = (db.prepare('PRAGMA table_info(pools)').all() as { name: string }[]).map((c) => c.name)
  if (!poolColumns.includes('ref')) {
    // The refs were added to an older file: its CURVE pools were stored without their template, so
    // they and CURVE's cursors go, and discovery finds them again from their factories' events.
    db.transaction(() => {
      db.exec('ALTER TABLE pools ADD COLUMN ref TEXT')
      db.prepare("DELETE FROM pools WHERE dex = 'CURVE'").run()
      db.prepare("DELETE FROM cursors WHERE dex = 'CURVE'").run()
      db.prepare("DELETE FROM scanned_ahead WHERE dex = 'CURVE'").run()
    })()
  }
  const meta = (name: string) => (db.prepare('SELECT value FROM meta WHERE name = ?').get(name) as { value: string } | undefined)?.value
  const storedChain = meta('chainId')
  const storedVersion = meta('schemaVersion')
  if (storedChain !== undefined && storedChain !== String(chainId)) {
    db.close()
    throw new MarketError(`market store ${path} belongs to chain ${storedChain}, not ${chainId}: point MARKET_DB_PATH at another file`)
  }
  if (storedVersion !== undefined && storedVersion !== SCHEMA_VERSION) {
    db.close()
    throw new MarketError(
      `market store ${path} has schema ${storedVersion}, this service writes ${SCHEMA_VERSION}: move the file away to rescan`,
    )
  }
  db.prepare('INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?), (?, ?)').run(
    'chainId',
    String(chainId),
    'schemaVersion',
    SCHEMA_VERSION,
  )
  const insertPool = db.prepare('INSERT OR IGNORE INTO pools (id, dex, emitter, pool_key, skipped, ref) VALUES (?, ?, ?, ?, ?, ?)')
  const upsertToken = db.prepare('INSERT OR REPLACE INTO tokens (address, kind, reason, block) VALUES (?, ?, ?, ?)')
  const upsertCursor = db.prepare('INSERT OR REPLACE INTO cursors (source, dex, from_block, last_scanned) VALUES (?, ?, ?, ?)')
  const clearAhead = db.prepare('DELETE FROM scanned_ahead WHERE source = ? AND dex = ?')
  const insertAhead = db.prepare('INSERT INTO scanned_ahead (source, dex, from_block, to_block) VALUES (?, ?, ?, ?)')
  const selectAhead = db.prepare('SELECT source, dex, from_block, to_block FROM scanned_ahead')
  const upsertShallow = db.prepare('INSERT OR REPLACE INTO shallow_pools (id, block, depth) VALUES (?, ?, ?)')
  const deleteShallow = db.prepare('DELETE FROM shallow_pools WHERE id = ?')
  const save = db.transaction((update: Parameters<MarketStore['save']>[0]) => {
    for (const { id, blockNumber, depthWei } of update.shallow ?? [])
      upsertShallow.run(id, blockNumber.toString(), depthWei === null ? null : depthWei.toString())
    for (const id of update.deep ?? []) deleteShallow.run(id)
    for (const { address, verdict, blockNumber } of update.tokens ?? []) {
      upsertToken.run(
        address.toLowerCase(),
        verdict.kind,
        verdict.kind === 'plain' ? (verdict.unchecked ?? null) : verdict.reason,
        blockNumber.toString(),
      )
    }
    for (const { ref, skipped } of update.pools) {
      insertPool.run(ref.id, ref.dex, ref.emitter, ref.key ? JSON.stringify(ref.key) : null, skipped ?? null, JSON.stringify(ref))
    }
    for (const c of update.cursors) {
      const source = c.source.toLowerCase()
      upsertCursor.run(source, c.dex, c.fromBlock.toString(), c.lastScanned.toString())
      clearAhead.run(source, c.dex)
      for (const range of c.ahead ?? []) insertAhead.run(source, c.dex, range.fromBlock.toString(), range.toBlock.toString())
    }
  })
  const aheadOf = () => {
    const rows = selectAhead.all() as { source: string; dex: string; from_block: string; to_block: string }[]
    const ranges = new Map<string, BlockRange[]>()
    for (const row of rows) {
      const key = `${row.source} ${row.dex}`
      ranges.set(key, [...(ranges.get(key) ?? []), { fromBlock: BigInt(row.from_block), toBlock: BigInt(row.to_block) }])
    }
    for (const list of ranges.values()) list.sort((a, b) => (a.fromBlock < b.fromBlock ? -1 : 1))
    return ranges
  }
  return {
    chainId,
    cursors: () => {
      const ahead = aheadOf()
      return (
        db.prepare('SELECT source, dex, from_block, last_scanned FROM cursors').all() as {
          source: string
          dex: string
          from_block: string
          last_scanned: string
        }[]
      ).map((row) => ({
        source: row.source as Address,
        dex: row.dex as DexId,
        fromBlock: BigInt(row.from_block),
        lastScanned: BigInt(row.last_scanned),
        ahead: ahead.get(`${row.source} ${row.dex}`) ?? [],
      }))
    },
    pools: () =>
      (
        db.prepare('SELECT id, dex, emitter, pool_key, skipped, ref FROM pools ORDER BY id').all() as {
          id: string
          dex: string
          emitter: string
          pool_key: string | null
          skipped: string | null
          ref: string | null
        }[]
      ).map((row) => {
        const ref: PoolRef = row.ref
          ? (JSON.parse(row.ref) as PoolRef)
          : {
              id: row.id,
              dex: row.dex as DexId,
              emitter: row.emitter as Address,
              ...(row.pool_key ? { key: JSON.parse(row.pool_key) } : {}),
            }
        return row.skipped === null ? { ref } : { ref, skipped: row.skipped }
      }),
    tokens: () =>
      (
        db.prepare('SELECT address, kind, reason, block FROM tokens ORDER BY address').all() as {
          address: string
          kind: string
          reason: string | null
          block: string
        }[]
      ).map((row) => ({
        address: row.address as Address,
        verdict: (row.kind === 'plain'
          ? row.reason === null
            ? { kind: 'plain' }
            : { kind: 'plain', unchecked: row.reason }
          : { kind: row.kind, reason: row.reason ?? '' }) as TokenVerdict,
        blockNumber: BigInt(row.block),
      })),
    shallow: () =>
      (db.prepare('SELECT id, block, depth FROM shallow_pools').all() as { id: string; block: string; depth: string | null }[]).map(
        (row): StoredDepth => ({ id: row.id, blockNumber: BigInt(row.block), depthWei: row.depth === null ? null : BigInt(row.depth) }),
      ),
    save: (update) => save(update),
    close: () => db.close(),
  }
}
