import assert from 'node:assert/strict'
import { describe, test } from 'vitest'
import { migrate } from '../../../src/gateway/store/migrate.ts'
import type { SqlDatabase } from '../../../src/gateway/store/SqlDatabase.ts'
import { testEngines } from '../fixtures/testDatabases.ts'

// The store's contract, the same on SQLite and on a real PostgreSQL: one set of migrations, the
// same statements, the same value types, all-or-nothing transactions.

for (const engine of testEngines) {
  describe(engine.name, () => {
    test('migrations apply once; a second run applies nothing; every table exists', async () => {
      const db = await engine.open()
      try {
        assert.deepEqual((await migrate({ db })).applied, [])
        const versions = await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')
        assert.deepEqual(
          versions.map((v) => v.version),
          [1, 2, 3, 4, 5, 6, 7],
        )
        for (const table of [
          'indexer_state',
          'tokens',
          'balances',
          'transfers',
          'trades',
          'fee_positions',
          'fee_events',
          'vesting_positions',
          'vesting_claims',
          'token_updates',
          'documents',
          'announcements',
          'rankings',
          'api_keys',
          'usage_hourly',
          'usage_daily',
          'idempotency_entries',
          'transaction_plans',
          'swap_quotes',
          'launch_salts',
          'announcement_drafts',
          'indexer_leases',
        ]) {
          assert.deepEqual(await db.query(`SELECT COUNT(*) AS n FROM ${table}`), [{ n: 0 }], table)
        }
      } finally {
        await db.close()
      }
    })

    test('types: integers come back as numbers (int8 too), amounts as exact strings; row values order keysets; upserts', async () => {
      const db = await engine.open()
      try {
        const big = (2n ** 256n - 1n).toString()
        await db.execute(
          'INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, token, from_address, to_address, amount) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [8453, '0xaa', 1, 2 ** 40, '0xt', '0xf', '0xt2', big],
        )
        await db.execute(
          'INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, token, from_address, to_address, amount) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [8453, '0xaa', 2, 2n ** 40n + 1n, '0xt', '0xf', '0xt2', '1'],
        )
        const rows = await db.query<{ block_number: number; amount: string; n: number }>(
          'SELECT block_number, amount, log_index AS n FROM transfers WHERE (block_number, log_index) > ($1, $2) ORDER BY block_number',
          [2 ** 40, 0],
        )
        assert.deepEqual(rows, [
          { block_number: 2 ** 40, amount: big, n: 1 },
          { block_number: 2 ** 40 + 1, amount: '1', n: 2 },
        ])
        assert.deepEqual(await db.query('SELECT CAST(SUM(log_index) AS BIGINT) AS s, COUNT(*) AS c FROM transfers'), [{ s: 3, c: 2 }])
        const upsert =
          'INSERT INTO rankings (sort, version, digest, refreshed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sort) DO UPDATE SET version = rankings.version + 1, digest = excluded.digest'
        await db.execute(upsert, ['trending', 1, 'a', 'now'])
        await db.execute(upsert, ['trending', 1, 'b', 'now'])
        assert.deepEqual(await db.query('SELECT version, digest FROM rankings'), [{ version: 2, digest: 'b' }])
        assert.deepEqual(await db.query('SELECT 1 AS x WHERE lower($1) LIKE lower($2)', ['Moon Token', '%moon%']), [{ x: 1 }])
      } finally {
        await db.close()
      }
    })

    test("transactions: all or nothing; a reader never sees a transaction's rows before its commit", async () => {
      const db = await engine.open()
      try {
        const insert = (tx: SqlDatabase, sort: string) =>
          tx.execute('INSERT INTO rankings (sort, version, digest, refreshed_at) VALUES ($1, 1, $2, $3)', [sort, 'd', 'now'])
        await assert.rejects(
          db.transaction(async (tx) => {
            await insert(tx, 'a')
            throw new Error('boom')
          }),
          /boom/,
        )
        assert.deepEqual(await db.query('SELECT sort FROM rankings'), [])
        let release!: () => void
        const gate = new Promise<void>((resolve) => (release = resolve))
        const writing = db.transaction(async (tx) => {
          await insert(tx, 'b')
          await gate
          await insert(tx, 'c')
        })
        // The transaction is open and has written 'b': a read now must not see it.
        await new Promise((resolve) => setTimeout(resolve, 20))
        const during = db.query<{ sort: string }>('SELECT sort FROM rankings ORDER BY sort')
        release()
        await writing
        const seen = (await during).map((r) => r.sort)
        assert.ok(seen.length === 0 || seen.join() === 'b,c', `a reader saw ${seen}`)
        assert.deepEqual(
          (await db.query<{ sort: string }>('SELECT sort FROM rankings ORDER BY sort')).map((r) => r.sort),
          ['b', 'c'],
        )
      } finally {
        await db.close()
      }
    })
  })
}
