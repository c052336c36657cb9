import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, getAddress, parseAbi, type PublicClient } from 'viem'
import { useSeededDevnet } from '../../fixtures/useSeededDevnet.ts'
import { importLaunchpadContent } from '../../../src/gateway/content/importLaunchpadContent.ts'
import { createIndexer } from '../../../src/gateway/indexer/createIndexer.ts'
import { marketCapOf } from '../../../src/gateway/indexer/marketCapOf.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'
import type { SqlDatabase } from '../../../src/gateway/store/SqlDatabase.ts'
import { testEngines } from '../fixtures/testDatabases.ts'

// The read model against the contracts: after indexing the seeded launchpad, every indexed
// balance, trade, fee position, vesting position and token field equals what the chain reports at
// the indexer's block; the same on SQLite and on PostgreSQL.

const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])

const devnet = useSeededDevnet()

for (const engine of testEngines) {
  describe(engine.name, () => {
    let db: SqlDatabase
    let block: bigint
    let client: PublicClient
    beforeAll(async () => {
      db = await engine.open()
      const lp = devnet.market.launchpad!
      client = devnet.publicClient as unknown as PublicClient
      // Small batches: the seeded week spans several, as a real chain's history would.
      const indexer = createIndexer({
        db,
        client,
        launchpad: {
          chainId: devnet.market.chainId,
          factory: lp.factory,
          feeLocker: lp.feeLocker,
          vestingVault: lp.vestingVault,
          fromBlock: BigInt(lp.fromBlock),
        },
        batchBlocks: 50,
      })
      await indexer.catchUp()
      await importLaunchpadContent({ db, documents: lp.documents, announcements: lp.announcements, nowIso: new Date().toISOString() })
      const [state] = await db.query<{ block_number: number }>('SELECT block_number FROM indexer_state')
      block = BigInt(state.block_number)
      assert.equal(block, await client.getBlockNumber({ cacheTime: 0 }))
    }, 900_000)
    afterAll(async () => {
      await db?.close()
    })
    const at = <T>(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
      client.readContract({
        address,
        abi: abi as never,
        functionName: functionName as never,
        args: args as never,
        blockNumber: block,
      }) as Promise<T>

    test('tokens: name, symbol, extra metadata, admin, supply, pool price and the paired asset in the pool equal the contracts', async () => {
      const lp = devnet.market.launchpad!
      const rows = await db.query<Record<string, string | number>>('SELECT * FROM tokens ORDER BY launched_at, launch_log_index')
      assert.equal(rows.length, lp.tokens.length)
      for (const row of rows) {
        const token = getAddress(row.address as string)
        const [name, symbol, extra, admin, supply] = await Promise.all(
          ['name', 'symbol', 'extraMetadata', 'admin', 'totalSupply'].map((f) => at<string | bigint>(token, launchTokenAbi, f)),
        )
        assert.deepEqual(
          [row.name, row.symbol, row.extra_metadata, row.admin, row.total_supply],
          [name, symbol, extra, (admin as string).toLowerCase(), String(supply)],
          token,
        )
        const [sqrtPriceX96, tick] = await at<[bigint, number]>(getAddress(row.pool as string), poolAbi, 'slot0')
        assert.deepEqual([row.sqrt_price_x96, row.tick], [sqrtPriceX96.toString(), tick])
        assert.equal(
          row.pool_paired_balance,
          String(await at<bigint>(lp.weth, erc20, 'balanceOf', [row.pool])),
          `${row.symbol}: paired asset in the pool`,
        )
        assert.equal(row.liquidity, row.pool_paired_balance)
        assert.equal(
          row.market_cap,
          marketCapOf({ totalSupply: supply as bigint, sqrtPriceX96, tokenIsToken0: row.token_is_token0 === 1 }).toString(),
        )
      }
    })

    test("holders: every indexed balance is the token's balanceOf, balances sum to the supply, holder counts match", async () => {
      const tokens = await db.query<{ address: string; total_supply: string; holder_count: number }>(
        'SELECT address, total_supply, holder_count FROM tokens',
      )
      for (const t of tokens) {
        const rows = await db.query<{ holder: string; balance: string }>('SELECT holder, balance FROM balances WHERE token = $1', [
          t.address,
        ])
        const onChain = await Promise.all(rows.map((r) => at<bigint>(getAddress(t.address), erc20, 'balanceOf', [r.holder])))
        assert.deepEqual(
          rows.map((r) => r.balance),
          onChain.map(String),
          t.address,
        )
        assert.equal(
          rows.reduce((s, r) => s + BigInt(r.balance), 0n),
          BigInt(t.total_supply),
        )
        assert.equal(t.holder_count, rows.filter((r) => r.balance !== '0').length)
      }
    })

    test("trades: one per Swap log of each launched pool, with its sides, amounts, price and the transaction's sender", async () => {
      const lp = devnet.market.launchpad!
      const logs = await client.getLogs({
        address: lp.tokens.map((t) => t.pool),
        event: poolAbi[1],
        fromBlock: BigInt(lp.fromBlock),
        toBlock: block,
      })
      const trades = await db.query<{
        tx_hash: string
        log_index: number
        side: string
        amount_token: string
        amount_paired: string
        sqrt_price_x96: string
        trader: string
        token: string
      }>('SELECT * FROM trades')
      assert.equal(trades.length, logs.length)
      const byId = new Map(trades.map((t) => [`${t.tx_hash}:${t.log_index}`, t]))
      const sample = logs.filter((_, i) => i % 40 === 0)
      for (const log of sample) {
        const trade = byId.get(`${log.transactionHash}:${log.logIndex}`)!
        const tokenIsToken0 = BigInt(trade.token) < BigInt(lp.weth)
        const tokenDelta = tokenIsToken0 ? log.args.amount0! : log.args.amount1!
        const pairedDelta = tokenIsToken0 ? log.args.amount1! : log.args.amount0!
        assert.equal(trade.side, tokenDelta < 0n ? 'buy' : 'sell')
        assert.equal(BigInt(trade.amount_token), tokenDelta < 0n ? -tokenDelta : tokenDelta)
        assert.equal(BigInt(trade.amount_paired), pairedDelta < 0n ? -pairedDelta : pairedDelta)
        assert.equal(trade.sqrt_price_x96, log.args.sqrtPriceX96!.toString())
        const tx = await client.getTransaction({ hash: log.transactionHash })
        assert.equal(trade.trader, tx.from.toLowerCase())
      }
    })

    test("fees: each position's accrued amounts are the locker's, its claimed totals the sum of its FeesClaimed logs", async () => {
      const lp = devnet.market.launchpad!
      const positions = await db.query<{
        token: string
        recipient: string
        bps: number
        accrued_token: string
        accrued_paired: string
        claimed_token: string
        claimed_paired: string
        claim_count: number
      }>('SELECT * FROM fee_positions ORDER BY token, position_index')
      assert.ok(positions.length >= lp.tokens.length)
      const claims = await client.getContractEvents({
        address: lp.feeLocker,
        abi: feeLockerAbi,
        eventName: 'FeesClaimed',
        fromBlock: BigInt(lp.fromBlock),
        toBlock: block,
      })
      for (const p of positions) {
        const [tokenAmount, pairedAmount] = await at<[bigint, bigint]>(lp.feeLocker, feeLockerAbi, 'accrued', [p.token, p.recipient])
        assert.deepEqual([p.accrued_token, p.accrued_paired], [tokenAmount.toString(), pairedAmount.toString()])
        const mine = claims.filter((c) => c.args.token!.toLowerCase() === p.token && c.args.recipient!.toLowerCase() === p.recipient)
        assert.equal(p.claim_count, mine.length)
        assert.equal(p.claimed_token, mine.reduce((s, c) => s + c.args.tokenAmount!, 0n).toString())
        assert.equal(p.claimed_paired, mine.reduce((s, c) => s + c.args.pairedAmount!, 0n).toString())
      }
      const recipients = await at<readonly { recipient: Address; bps: number }[]>(lp.feeLocker, feeLockerAbi, 'rewardRecipients', [
        positions[0].token,
      ])
      assert.deepEqual(
        recipients.map((r) => [r.recipient.toLowerCase(), r.bps]),
        positions.filter((p) => p.token === positions[0].token).map((p) => [p.recipient, p.bps]),
      )
    })

    test("vesting: every position's amount, schedule and claimed total are the vault's", async () => {
      const lp = devnet.market.launchpad!
      const positions = await db.query<{
        position_id: number
        token: string
        beneficiary: string
        amount: string
        claimed: string
        lockup_end: number
        vesting_end: number
      }>('SELECT * FROM vesting_positions')
      assert.equal(BigInt(positions.length), await at<bigint>(lp.vestingVault, vestingVaultAbi, 'positionCount'))
      for (const p of positions) {
        const [token, beneficiary, amount, claimed, , lockupEnd, vestingEnd] = await at<
          readonly [Address, Address, bigint, bigint, bigint, bigint, bigint]
        >(lp.vestingVault, vestingVaultAbi, 'positions', [BigInt(p.position_id)])
        assert.deepEqual(
          [p.token, p.beneficiary, p.amount, p.claimed, p.lockup_end, p.vesting_end],
          [token.toLowerCase(), beneficiary.toLowerCase(), amount.toString(), claimed.toString(), Number(lockupEnd), Number(vestingEnd)],
        )
      }
    })

    test('content: the seeded documents and announcements are stored; rankings were computed', async () => {
      const lp = devnet.market.launchpad!
      assert.deepEqual(await db.query('SELECT COUNT(*) AS n FROM documents'), [{ n: lp.documents.length }])
      assert.deepEqual(await db.query('SELECT COUNT(*) AS n FROM announcements'), [{ n: lp.announcements.length }])
      const rankings = await db.query<{ sort: string; version: number }>('SELECT sort, version FROM rankings ORDER BY sort')
      assert.deepEqual(
        rankings.map((r) => r.sort),
        ['liquidity', 'market_cap', 'trending', 'volume_24h'],
      )
      const [hot] = await db.query<{ volume_24h: string; trades_24h: number }>(
        'SELECT volume_24h, trades_24h FROM tokens ORDER BY volume_24h_key DESC LIMIT 1',
      )
      assert.ok(BigInt(hot.volume_24h) > 0n && hot.trades_24h > 0)
    })
  })
}
