import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, getAddress, type Hex, parseAbi } from 'viem'
import { useSeededDevnet } from '../../fixtures/useSeededDevnet.ts'
import { computeDocumentCid } from '../../../src/gateway/documents/computeDocumentCid.ts'
import { feeLockerAbi } from '../../../src/gateway/launchpad/feeLockerAbi.ts'
import { launchTokenAbi } from '../../../src/gateway/launchpad/launchTokenAbi.ts'
import { vestingVaultAbi } from '../../../src/gateway/launchpad/vestingVaultAbi.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// The read routes as a client sees them, on SQLite and on PostgreSQL: every value a route answers
// equals what the chain reports at the block the answer names (the pool's own Swap logs for
// trades, balanceOf for holders and holdings, a simulated claim for claimable fees, the vault for
// vesting, the node for a transaction's status), and paging visits every row once.

// Bodies are checked field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const swapEvent = parseAbi([
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
])

const devnet = useSeededDevnet()

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(engine, () => {
    let bed: GatewayTestbed
    let key: string
    beforeAll(async () => {
      bed = await startGatewayTestbed({ engine, devnet })
      key = (
        await bed.key({
          plan: 'partner',
          customLimits: { unitsPerMinute: 1_000_000, burstPerSecond: 1_000_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 },
        })
      ).key
    }, 900_000)
    afterAll(async () => {
      await bed?.stop()
    })
    const getJson = async (path: string): Promise<Json> => {
      const res = await bed.get(path, { key })
      const body = await res.json()
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`)
      assert.ok(!Number.isNaN(Date.parse((body as Json).meta.generated_at)))
      return body
    }
    /** Every row of a paged route, following next_cursor. */
    const all = async (path: string): Promise<Json[]> => {
      const rows: Json[] = []
      let cursor: string | null = null
      do {
        const body: Json = await getJson(`${path}${path.includes('?') ? '&' : '?'}limit=200${cursor ? `&cursor=${cursor}` : ''}`)
        rows.push(...body.data)
        cursor = body.page.next_cursor
      } while (cursor)
      return rows
    }
    const lp = () => devnet.market.launchpad!

    test('token detail: on-chain fields at its block, the metadata document its extra_metadata names, observed_block', async () => {
      for (const t of lp().tokens.slice(0, 6)) {
        const { data, meta } = await getJson(`/tokens/8453/${t.address}`)
        const blockNumber = BigInt(meta.observed_block)
        const read = (functionName: string) =>
          devnet.publicClient.readContract({ address: t.address, abi: launchTokenAbi, functionName: functionName as never, blockNumber })
        assert.deepEqual(
          [data.name, data.symbol, data.extra_metadata, data.total_supply],
          [await read('name'), await read('symbol'), await read('extraMetadata'), String(await read('totalSupply'))],
        )
        assert.equal(data.creator, getAddress(t.creator))
        assert.equal(data.pool.address, getAddress(t.pool))
        if (data.metadata)
          assert.equal(
            `ipfs://${computeDocumentCid(new TextEncoder().encode(JSON.stringify(Object.fromEntries(Object.entries(data.metadata).sort(([a], [b]) => (a < b ? -1 : 1))))))}`,
            data.extra_metadata,
          )
        assert.equal(
          data.reward_recipients.reduce((s: number, r: Json) => s + r.bps, 0),
          10_000,
        )
        assert.ok(['finalized', 'safe', 'unsafe'].includes(data.finality))
      }
    })

    test("trades: every page together are the pool's own Swap logs, newest first, each once", async () => {
      for (const t of lp().tokens.slice(0, 4)) {
        const trades = await all(`/tokens/8453/${t.address}/trades`)
        const logs = await devnet.publicClient.getLogs({
          address: t.pool,
          event: swapEvent[0],
          fromBlock: BigInt(lp().fromBlock),
          toBlock: 'latest',
        })
        assert.equal(trades.length, logs.length, t.symbol)
        assert.deepEqual(
          trades.map((x) => `${x.tx_hash}:${x.log_index}`),
          logs.map((l) => `${l.transactionHash}:${l.logIndex}`).reverse(),
        )
        const { data } = await getJson(`/tokens/8453/${t.address}`)
        assert.equal(data.trade_count, logs.length)
      }
    })

    test('holders: the whole snapshot, ranked, each balance balanceOf at the snapshot block, summing to the supply', async () => {
      const t = lp().tokens[1]
      const first = await getJson(`/tokens/8453/${t.address}/holders?limit=3`)
      const holders = await all(`/tokens/8453/${t.address}/holders`)
      assert.equal(holders.length, first.snapshot.holder_count)
      assert.deepEqual(
        holders.map((h) => h.rank),
        holders.map((_, i) => i + 1),
      )
      const blockNumber = BigInt(first.snapshot.snapshot_block)
      for (const h of holders)
        assert.equal(
          h.balance,
          String(
            await devnet.publicClient.readContract({
              address: t.address,
              abi: launchTokenAbi,
              functionName: 'balanceOf',
              args: [h.address],
              blockNumber,
            }),
          ),
        )
      assert.equal(
        holders.reduce((s, h) => s + BigInt(h.balance), 0n),
        BigInt(first.snapshot.total_supply),
      )
      assert.equal(holders.find((h) => h.address === getAddress(t.pool))?.label, 'pool')
    })

    test('fee claims: what a claim by the recipient would pay now, simulated at as_of_block', async () => {
      let checked = 0
      for (const wallet of lp().creators.slice(0, 3)) {
        const { data, meta } = await getJson(`/wallets/${wallet}/fee-claims?limit=50`)
        for (const p of data) {
          assert.equal(p.as_of_block, meta.as_of_block)
          const expected = await devnet.publicClient
            .simulateContract({
              address: p.fee_locker,
              abi: feeLockerAbi,
              functionName: 'claim',
              args: [p.token.address, p.recipient],
              account: p.recipient as Address,
              blockNumber: BigInt(p.as_of_block),
            })
            .then(
              (r) => r.result.map(String),
              () => ['0', '0'],
            )
          assert.deepEqual([p.claimable.token_raw, p.claimable.paired_raw], expected, `${p.token.symbol} ${p.recipient}`)
          checked++
        }
      }
      assert.ok(checked > 3)
    })

    test('vesting: claimed and claimable from the vault at as_of_block, every stage present in the seeded week', async () => {
      const stages = new Set<string>()
      for (const wallet of lp().creators) {
        for (const p of await all(`/wallets/${wallet}/vesting`)) {
          const blockNumber = BigInt(p.as_of_block)
          const [claimable, position] = await Promise.all([
            devnet.publicClient.readContract({
              address: p.vault,
              abi: vestingVaultAbi,
              functionName: 'claimable',
              args: [BigInt(p.position_id)],
              blockNumber,
            }),
            devnet.publicClient.readContract({
              address: p.vault,
              abi: vestingVaultAbi,
              functionName: 'positions',
              args: [BigInt(p.position_id)],
              blockNumber,
            }),
          ])
          assert.deepEqual([p.claimable, p.claimed, p.amount], [String(claimable), String(position[3]), String(position[2])])
          stages.add(p.stage)
        }
      }
      assert.deepEqual([...stages].sort(), ['claimed', 'locked', 'vested', 'vesting'])
    })

    test('wallet summary: holdings at as_of_block, claimable fees and vesting equal to the sums of the focused routes', async () => {
      const wallet = lp().creators[0]
      const { data, meta } = await getJson(`/wallets/${wallet}/summary`)
      for (const h of data.holdings.items)
        assert.equal(
          h.balance,
          String(
            await devnet.publicClient.readContract({
              address: h.token.address,
              abi: launchTokenAbi,
              functionName: 'balanceOf',
              args: [wallet],
              blockNumber: BigInt(meta.as_of_block),
            }),
          ),
        )
      const fees = await all(`/wallets/${wallet}/fee-claims`)
      assert.equal(data.fee_claims.positions, fees.length)
      const feeTotal = fees.reduce((s, p) => s + BigInt(p.claimable.paired_raw), 0n)
      const weth = getAddress(lp().weth)
      assert.equal(BigInt(data.fee_claims.claimable.find((c: Json) => c.asset === weth)?.amount ?? 0), feeTotal)
      const vesting = await all(`/wallets/${wallet}/vesting`)
      assert.equal(data.vesting.positions, vesting.length)
      assert.equal(
        data.vesting.claimable.reduce((s: bigint, c: Json) => s + BigInt(c.amount), 0n),
        vesting.reduce((s, p) => s + BigInt(p.claimable), 0n),
      )
    })

    test('token lists: six sorts, each a total order over every token; search and creator lists are their filters', async () => {
      const [{ n }] = await bed.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM tokens')
      for (const sort of ['newest', 'oldest', 'trending', 'liquidity', 'market_cap', 'volume_24h']) {
        const tokens = await all(`/tokens?sort=${sort}`)
        assert.equal(tokens.length, Number(n), sort)
        const key = (t: Json) =>
          sort === 'newest' || sort === 'oldest'
            ? Date.parse(t.launched_at)
            : sort === 'trending'
              ? t.market.trending_score
              : Number(BigInt(t.market[`${sort}_raw`]) / 10n ** 9n)
        for (let i = 1; i < tokens.length; i++)
          assert.ok(sort === 'oldest' ? key(tokens[i - 1]) <= key(tokens[i]) : key(tokens[i - 1]) >= key(tokens[i]), `${sort} at ${i}`)
      }
      const creator = lp().creators[2]
      const mine = await all(`/creators/${creator}/tokens`)
      assert.deepEqual(
        mine.map((t) => t.address).sort(),
        lp()
          .tokens.filter((t) => t.creator === creator)
          .map((t) => getAddress(t.address))
          .sort(),
      )
      const found = await all('/tokens/search?q=OTTER')
      assert.ok(found.length >= 1 && found.every((t) => `${t.name} ${t.symbol}`.toLowerCase().includes('otter')))
      assert.deepEqual(
        (await all(`/tokens/search?q=${lp().tokens[3].address.toLowerCase()}`)).map((t) => t.address),
        [getAddress(lp().tokens[3].address)],
      )
    })

    test('announcements: every seeded one of the token, newest first, signed by its creator', async () => {
      const t = lp().announcements[0].token
      const got = await all(`/tokens/8453/${t}/announcements`)
      const seeded = lp().announcements.filter((a) => a.token.toLowerCase() === t.toLowerCase())
      assert.deepEqual(got.map((a) => a.id).sort(), seeded.map((a) => a.id.toLowerCase()).sort())
      for (let i = 1; i < got.length; i++) assert.ok(Date.parse(got[i - 1].issued_at) >= Date.parse(got[i].issued_at))
    })

    test('transaction status: a launch is success with its token, confirmations from the head; config suites carry as_of_block', async () => {
      const [row] = await bed.db.query<{ launch_tx: string; address: string; launch_block: number }>(
        'SELECT launch_tx, address, launch_block FROM tokens ORDER BY launch_block LIMIT 1',
      )
      const { data } = await getJson(`/transactions/8453/${row.launch_tx}`)
      const head = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })
      assert.equal(data.status, 'success')
      assert.equal(data.launched_token, getAddress(row.address))
      assert.equal(data.block_number, Number(row.launch_block))
      assert.equal(data.confirmations, Number(head) - Number(row.launch_block) + 1)
      const receipt = await devnet.publicClient.getTransactionReceipt({ hash: row.launch_tx as Hex })
      assert.equal(data.gas_used, String(receipt.gasUsed))
      const config = await getJson('/config?market=all')
      assert.equal(config.meta.as_of_block, config.data.as_of_block)
      assert.ok(config.data.suites.some((s: Json) => s.category === 'standard' && s.paired_token.address === getAddress(lp().weth)))
      assert.equal(config.data.suites.length, lp().pairedTokens.length)
    })
  })
}
