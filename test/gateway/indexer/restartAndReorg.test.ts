import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, type Hex, parseEther, type PublicClient } from 'viem'
import { revertToSnapshot } from '../../../src/devnet/revertToSnapshot.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import { createIndexer } from '../../../src/gateway/indexer/createIndexer.ts'
import type { LaunchpadAddresses } from '../../../src/gateway/indexer/LaunchpadAddresses.ts'
import { buildLaunchParams } from '../../../src/gateway/launchpad/buildLaunchParams.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'
import type { SqlDatabase } from '../../../src/gateway/store/SqlDatabase.ts'
import { testEngines } from '../fixtures/testDatabases.ts'
import { type LaunchpadTestbed, startLaunchpadTestbed } from '../launchpad/launchpadTestbed.ts'

// The indexer survives restarts (a new indexer on the same database carries on from the last
// commit) and reorganisations (a replaced chain is undone back to the fork and read again): the
// read model then equals one indexed from scratch on the new chain, on SQLite and PostgreSQL.
// Two indexers on one database take turns through the chain's lease (a stalled leader replaced
// cannot write); test/scaling/gatewayInstances.test.ts does it with two SIGKILLable processes.

const STARTING_TICK = -184_400
let t: LaunchpadTestbed
let launchpad: LaunchpadAddresses
let client: PublicClient

beforeAll(async () => {
  t = await startLaunchpadTestbed()
  client = t.devnet.publicClient as unknown as PublicClient
  launchpad = {
    chainId: t.devnet.chain.id,
    factory: t.launchpad.factory,
    feeLocker: t.launchpad.feeLocker,
    vestingVault: t.launchpad.vestingVault,
    fromBlock: t.launchpad.fromBlock,
  }
}, 300_000)
afterAll(async () => {
  await t?.stop()
})

/** Every table's rows without the columns that record when (not what) the indexer wrote. */
async function contents(db: SqlDatabase): Promise<Record<string, unknown[]>> {
  const when = new Set(['updated_at', 'changed_block', 'holders_block', 'ranked_at', 'ranked_block'])
  const tables: [string, string][] = [
    ['tokens', 'chain_id, address'],
    ["balances WHERE balance <> '0'", 'token, holder'],
    ['transfers', 'tx_hash, log_index'],
    ['trades', 'tx_hash, log_index'],
    ['fee_positions', 'token, recipient'],
    ['fee_events', 'tx_hash, log_index'],
    ['vesting_positions', 'position_id'],
    ['vesting_claims', 'tx_hash, log_index'],
    ['token_updates', 'tx_hash, log_index'],
  ]
  const out: Record<string, unknown[]> = {}
  for (const [table, order] of tables) {
    const rows = await db.query<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${order}`)
    out[table] = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !when.has(k))))
  }
  return out
}

async function activity({ salt, seed }: { salt: number; seed: number }): Promise<Address> {
  const [a, b] = t.traders
  const { token, pool, event } = await t.launch(
    buildLaunchParams({
      name: `Reorg ${salt}`,
      symbol: `R${salt}`,
      creator: t.creator,
      pairedToken: t.weth,
      startingTick: STARTING_TICK,
      salt: `0x${salt.toString(16).padStart(64, '0')}`,
      rewardRecipients: [
        { recipient: t.creator, bps: 7_000 },
        { recipient: t.stranger, bps: 3_000 },
      ],
      vesting: { beneficiary: t.creator, bps: 1_000, lockupSeconds: 60, vestingSeconds: 3_600 },
    }),
  )
  for (let i = 0; i < 3; i++) {
    const { amountOut } = await t.swap({ token, pool, side: 'buy', amountIn: parseEther('0.1') * BigInt(seed + i), from: i % 2 ? a : b })
    await t.swap({ token, pool, side: 'sell', amountIn: amountOut / 3n, from: i % 2 ? a : b })
  }
  await writeContractAndWait({
    devnet: t.devnet,
    address: t.launchpad.feeLocker,
    abi: feeLockerAbi,
    functionName: 'claim',
    args: [token, t.creator],
  })
  await writeContractAndWait({
    devnet: t.devnet,
    address: token,
    abi: launchTokenAbi,
    functionName: 'transfer',
    args: [t.stranger, 10n ** 18n],
    from: a,
  })
  await writeContractAndWait({
    devnet: t.devnet,
    address: token,
    abi: launchTokenAbi,
    functionName: 'updateSymbol',
    args: [`S${seed}`],
    from: t.creator,
  })
  // anvil stamps blocks 2 s apart (setFixedBlockTime): jump past the lockup explicitly.
  const latest = await t.devnet.publicClient.getBlock({ blockTag: 'latest' })
  await t.devnet.testClient.setNextBlockTimestamp({ timestamp: latest.timestamp + 600n })
  await writeContractAndWait({
    devnet: t.devnet,
    address: t.launchpad.vestingVault,
    abi: vestingVaultAbi,
    functionName: 'claim',
    args: [event.vestingId],
  })
  return token
}

for (const engine of testEngines) {
  describe(engine.name, () => {
    test('a restarted indexer carries on from its last commit; a reorganised chain is undone to the fork and read again', async () => {
      const db = await engine.open()
      const fresh = await engine.open()
      let snapshot: Hex = await t.devnet.testClient.snapshot()
      try {
        const first = await activity({ salt: 1, seed: 1 })
        const indexer = createIndexer({ db, client, launchpad, batchBlocks: 7 })
        // One batch, then a "restart": a new indexer on the same database.
        await indexer.syncOnce()
        const [{ block_number: afterOne }] = await db.query<{ block_number: number }>('SELECT block_number FROM indexer_state')
        const restarted = createIndexer({ db, client, launchpad, batchBlocks: 7 })
        const next = await restarted.syncOnce()
        assert.equal(next.fromBlock, BigInt(afterOne) + 1n)
        await restarted.catchUp()

        const fork = await t.devnet.testClient.snapshot()
        await activity({ salt: 2, seed: 2 })
        await t.swap({
          token: first,
          pool: (await db.query<{ pool: Address }>('SELECT pool FROM tokens'))[0].pool,
          side: 'buy',
          amountIn: parseEther('3'),
          from: t.traders[0],
        })
        await restarted.catchUp()
        const beforeReorg = await db.query('SELECT COUNT(*) AS n FROM tokens')
        assert.deepEqual(beforeReorg, [{ n: 2 }])

        // The chain is replaced from the fork on, by a different and longer history.
        await revertToSnapshot({ testClient: t.devnet.testClient, id: fork })
        await activity({ salt: 3, seed: 5 })
        await activity({ salt: 4, seed: 7 })
        const result = await restarted.syncOnce()
        assert.ok(result.reorgedTo !== undefined, 'the reorganisation was detected')
        await restarted.catchUp()
        assert.equal(restarted.status().reorgs, 1)

        await createIndexer({ db: fresh, client, launchpad, batchBlocks: 1000 }).catchUp()
        const [reorged, scratch] = [await contents(db), await contents(fresh)]
        for (const table of Object.keys(scratch)) assert.deepEqual(reorged[table], scratch[table], table)
        assert.deepEqual(
          (await db.query<{ symbol: string }>('SELECT symbol FROM tokens ORDER BY launched_at, launch_log_index')).map((r) => r.symbol),
          ['S1', 'S5', 'S7'],
        )
      } finally {
        snapshot = await revertToSnapshot({ testClient: t.devnet.testClient, id: snapshot })
        await db.close()
        await fresh.close()
      }
    })

    test("two indexers on one database take turns: the lease's holder indexes, the other stands by and takes over once it lapses; the stalled leader's batch is not written", async () => {
      const db = await engine.open()
      const fresh = await engine.open()
      const snapshot: Hex = await t.devnet.testClient.snapshot()
      try {
        await activity({ salt: 21, seed: 2 })
        // X's log reads wait at a gate the test opens (an instance that stalls mid-batch).
        let gate: Promise<void> = Promise.resolve()
        let reached = () => {}
        const gated = new Proxy(client, {
          get: (target, property, receiver) =>
            property === 'getLogs'
              ? async (...args: Parameters<PublicClient['getLogs']>) => {
                  reached()
                  await gate
                  return target.getLogs(...args)
                }
              : Reflect.get(target, property, receiver),
        })
        let ms = Date.now()
        const now = () => ms
        const x = createIndexer({ db, client: gated, launchpad, batchBlocks: 7, now, lease: { holder: 'x', ttlMs: 1_000 } })
        const y = createIndexer({ db, client, launchpad, batchBlocks: 7, now, lease: { holder: 'y', ttlMs: 1_000 } })
        const indexedTo = async () => (await db.query<{ block_number: number }>('SELECT block_number FROM indexer_state'))[0].block_number
        await x.syncOnce()
        assert.equal(x.status().role, 'leader')
        const afterX = await indexedTo()
        await y.syncOnce()
        assert.equal(y.status().role, 'standby')
        assert.equal(await indexedTo(), afterX, 'the standby wrote nothing')

        // X stalls in its next batch's log read past its lease; Y takes over and indexes to the head.
        let open = () => {}
        gate = new Promise((resolve) => (open = resolve))
        const atGate = new Promise<void>((resolve) => (reached = resolve))
        const stalled = x.syncOnce()
        await atGate
        ms += 1_001
        await y.catchUp()
        assert.equal(y.status().role, 'leader')
        const head = await indexedTo()
        open()
        await assert.rejects(stalled, /another instance took over/)
        assert.equal(await indexedTo(), head, "the replaced leader's batch rolled back")
        await x.syncOnce()
        assert.equal(x.status().role, 'standby')

        await createIndexer({ db: fresh, client, launchpad, batchBlocks: 1000 }).catchUp()
        const [shared, scratch] = [await contents(db), await contents(fresh)]
        for (const table of Object.keys(scratch)) assert.deepEqual(shared[table], scratch[table], table)
      } finally {
        await revertToSnapshot({ testClient: t.devnet.testClient, id: snapshot })
        await db.close()
        await fresh.close()
      }
    })

    test('a database indexed from another chain of the same id (an embedded chain seeded again): nothing kept is on this one, so all of it is undone and the chain read from its launchpad start', async () => {
      const db = await engine.open()
      const fresh = await engine.open()
      const snapshot: Hex = await t.devnet.testClient.snapshot()
      try {
        await activity({ salt: 11, seed: 3 })
        await createIndexer({ db, client, launchpad, batchBlocks: 1000 }).catchUp()
        // The other chain: none of the headers the database kept is on the chain the node now serves,
        // and its launchpad starts later (the embedded seed deployed it after other contracts).
        // Each hash's last byte replaced by another (a hash that already ends in ff, one in 256,
        // would otherwise stay on the chain and be taken for the fork point).
        const otherLastByte = "'0x' || substr(block_hash, 3, 62) || CASE WHEN substr(block_hash, 65, 2) = 'ff' THEN '00' ELSE 'ff' END"
        await db.execute(`UPDATE indexed_blocks SET block_hash = ${otherLastByte}`)
        await db.execute(`UPDATE indexer_state SET block_hash = ${otherLastByte}`)
        const head = await client.getBlockNumber()
        const elsewhere = { ...launchpad, fromBlock: head + 1n }
        await activity({ salt: 12, seed: 4 })
        const indexer = createIndexer({ db, client, launchpad: elsewhere, batchBlocks: 1000 })
        assert.ok((await indexer.syncOnce()).reorgedTo !== undefined, 'the other chain was detected')
        await indexer.catchUp()

        await createIndexer({ db: fresh, client, launchpad: elsewhere, batchBlocks: 1000 }).catchUp()
        const [replaced, scratch] = [await contents(db), await contents(fresh)]
        for (const table of Object.keys(scratch)) assert.deepEqual(replaced[table], scratch[table], table)
      } finally {
        await revertToSnapshot({ testClient: t.devnet.testClient, id: snapshot })
        await db.close()
        await fresh.close()
      }
    })
  })
}
