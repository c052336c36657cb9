import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, createPublicClient, custom, type Hex, hexToBigInt, numberToHex, type PublicClient } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { uniswapV3 } from '../adapters/uniswapV3.ts'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { smallMarketV3Request } from '../../test/fixtures/smallMarketV3Request.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { createQuoteService } from '../quote/createQuoteService.ts'
import { createMarketState } from './createMarketState.ts'

// What makes a plan's blockNumber a promise (docs/quote.md): the market never applies a read that
// saw a later block, and a plan names the block of the market its solve ran on.

const devnet = useDevnet()
let sm: SmallMarket
let solver: Solver
const head = async () => hexToBigInt(await devnet.publicClient.request({ method: 'eth_blockNumber' }))

beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  solver = await loadSolver({ nativeToken: sm.chain.weth })
})
afterAll(async () => {
  await solver?.close()
})

/**
 * A node that, like anvil, answers reads at its head block from the block it is mining: once armed,
 * the first read at `block` sends a swap (mined as the next block) and the reads that follow at
 * `block` are answered from that next block, until the head is asked again. Then it tells the
 * truth: the new head, and reads at `block` from `block`'s own state.
 */
function nodeMiningUnderTheReads(swap: () => Promise<unknown>) {
  let armed: { block: Hex } | undefined
  let mining: { block: Hex; next: Hex } | undefined
  let served = 0
  const client = createPublicClient({
    chain: devnet.chain,
    transport: custom({
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        // Asking the head (by number, or the latest block) ends the lie, as the real node's head moves on.
        if (method === 'eth_blockNumber' || (method === 'eth_getBlockByNumber' && params?.[0] === 'latest')) mining = undefined
        if (method === 'eth_call' && params) {
          if (armed && params[1] === armed.block) {
            const { block } = armed
            armed = undefined
            await swap()
            mining = { block, next: numberToHex(hexToBigInt(block) + 1n) }
          }
          if (mining && params[1] === mining.block) {
            served++
            params = [params[0], mining.next, ...params.slice(2)]
          }
        }
        return devnet.publicClient.request({ method, params } as never)
      },
    }),
  }) as PublicClient
  return { client, arm: (block: bigint) => (armed = { block: numberToHex(block) }), served: () => served }
}

test('a read that saw the block being mined is not applied: the market reads again once the head moved', async () => {
  const v3 = sm.v3Pool.toLowerCase() as Address
  const [a, b] = sm.tokens
  const node = nodeMiningUnderTheReads(() => sm.swap('v3', BigInt(a) < BigInt(b), 5n * 10n ** 19n))
  const market = createMarketState({ client: node.client, chain: sm.chain, solver, maxSnapshotAgeMs: 60_000, log: () => {} })
  await market.start()
  await sm.swap('v3', BigInt(a) < BigInt(b), 10n ** 19n)
  const block = await head()
  node.arm(block)
  const report = await market.refresh()
  assert.equal(report.toBlock, block)
  assert.ok(report.upserted.includes(v3))
  assert.ok(node.served() > 0, 'the refresh read the pool while the next block was being mined')
  const honest = await uniswapV3.readPool({
    client: devnet.publicClient,
    ref: { id: v3, dex: 'UNIV3', emitter: v3 },
    blockNumber: block,
    nextBlock: { number: block + 1n, timestamp: 0n },
  })
  const applied = market.pools().find((s) => s.ref.id === v3)
  assert.deepEqual(applied?.input, honest.input, `the pool as it was at block ${block}, not as the next block left it`)
  await market.stop()
})

test('a plan names the block its solve ran on, even when a block lands between the request and the solve', async () => {
  const market = createMarketState({ client: devnet.publicClient, chain: sm.chain, solver, maxSnapshotAgeMs: 60_000, log: () => {} })
  await market.start()
  // The quote waits for its gas price while a swap lands and the market applies it.
  let release!: () => void
  const gasPriceRead = new Promise<void>((resolve) => (release = resolve))
  const service = createQuoteService({
    solver,
    market,
    chainId: sm.chain.chainId,
    weth: sm.chain.weth,
    router: sm.harness,
    getGasPriceWei: async () => {
      await gasPriceRead
      return 0n
    },
  })
  const [a, b] = sm.tokens
  const request = smallMarketV3Request(sm)
  const before = market.freshness().blockNumber
  const pending = service.quote(request)
  await sm.swap('v3', BigInt(a) < BigInt(b), 10n ** 19n)
  await market.refresh()
  const after = market.freshness().blockNumber
  assert.ok(before !== undefined && after !== undefined && after > before)
  release()
  const plan = await pending
  assert.equal(plan.blockNumber, Number(after), 'the block of the state the plan was priced on')
  assert.equal(plan.expectedAmountOut, (await service.quote(request)).expectedAmountOut)
  await market.stop()
})
