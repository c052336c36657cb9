import assert from 'node:assert/strict'
import { afterEach, test } from 'vitest'
import { type Address, getAddress } from 'viem'
import { loadSolver, type Solver } from '../../bindings/index.ts'
import type { PoolInput } from '../../bindings/types.ts'
import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { createQuoteService } from './createQuoteService.ts'
import type { ReadTakerRates } from './dodoTakerOverrides.ts'

// A taker's DODO_V2 maintainer rates are read at the market's block before the solve; when a block
// lands meanwhile, the plan is the new block's, and it must be priced at that block's rates: read
// again there, and solved again only where a rate moved. The native solver and one DODO pool, no
// chain: the read is where the block lands (as a block landing while the eth_calls are out).

const WETH = getAddress('0x4200000000000000000000000000000000000006')
const USDC = getAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')
const POOL = '0xd000000000000000000000000000000000000001'
const TAKER = getAddress('0x00000000000000000000000000000000000000a1')
const FEE_RATE_MODEL = getAddress('0x00000000000000000000000000000000000000f1')
const ONE = 10n ** 18n

const dodoAt = (mtFeeRate: bigint): PoolInput => ({
  id: POOL,
  dex: 'DODO_V2',
  tokens: [WETH.toLowerCase() as Address, USDC.toLowerCase() as Address],
  state: {
    model: 'dodo_pmm',
    variant: 'dsp',
    i: '3000000000',
    k: '100000000000000000',
    baseReserve: (1000n * ONE).toString(),
    quoteReserve: (3_000_000n * 10n ** 6n).toString(),
    baseTarget: (1000n * ONE).toString(),
    quoteTarget: (3_000_000n * 10n ** 6n).toString(),
    rState: 0,
    lpFeeRate: '1000000000000000',
    mtFeeRate: mtFeeRate.toString(),
  },
})
/** The market's pool: the anonymous trader pays no maintainer fee. */
const dodo = dodoAt(0n)
const request = {
  chainId: 8453,
  tokenIn: WETH,
  tokenOut: USDC,
  amountIn: ONE.toString(),
  slippageBps: 0,
  taker: TAKER,
  timeBudgetMs: 10_000,
}

const solvers: Solver[] = []
afterEach(async () => {
  await Promise.all(solvers.splice(0).map((s) => s.close()))
})

/**
 * The quote service over one DODO pool at block 7, whose taker rates are `rateAt(block)`; with
 * `blockLandsDuringTheRead`, block 8 is applied while the first read is out.
 */
async function serviceWith({
  rateAt,
  blockLandsDuringTheRead = false,
}: {
  rateAt: (block: bigint) => bigint
  blockLandsDuringTheRead?: boolean
}) {
  const solver = await loadSolver({ nativeToken: WETH }, { backend: 'native' })
  solvers.push(solver)
  await solver.applyBlock({ blockNumber: 7, upserts: [dodo] })
  let block = 7n
  const quotes: (number | null)[] = []
  const counted: Solver = { ...solver, quote: async (r) => solver.quote(r).then((plan) => (quotes.push(plan.blockNumber), plan)) }
  /** A block lands: the solver's market moves to it (nothing else changes) and the market says so. */
  const landBlock = async () => {
    block += 1n
    await solver.applyBlock({ blockNumber: Number(block), upserts: [] })
  }
  const reads: bigint[] = []
  const readDodoTakerRates: ReadTakerRates = async ({ blockNumber, pools }) => {
    reads.push(blockNumber)
    if (blockLandsDuringTheRead && reads.length === 1) await landBlock()
    return new Map(pools.map((p) => [p.id, rateAt(blockNumber)]))
  }
  const snapshot = { ref: { id: POOL, dex: 'DODO_V2', dodo: { feeRateModel: FEE_RATE_MODEL } }, input: dodo, refreshEveryBlock: true }
  const market = {
    assertFresh: () => {},
    encodeLeg: (poolId: string) => ({ kind: 'dodo_v2' as const, pool: getAddress(poolId), baseToken: WETH }),
    pools: () => [snapshot as unknown as PoolSnapshot],
    freshness: () => ({ blockNumber: block, reorgs: 0 }),
  }
  const service = createQuoteService({
    solver: counted,
    market: market as never,
    chainId: 8453,
    weth: WETH,
    router: getAddress('0x0000000000000000000000000000000000007777'),
    getGasPriceWei: async () => 0n,
    readDodoTakerRates,
  })
  return { service, reads, quotes }
}

/** What the pool pays the taker at `rate` on a market at block 7: the solver asked directly. */
async function paidAtRate(rate: bigint): Promise<string> {
  const solver = await loadSolver({ nativeToken: WETH }, { backend: 'native' })
  solvers.push(solver)
  await solver.applyBlock({ blockNumber: 7, upserts: [dodoAt(rate)] })
  const { tokenIn, tokenOut, amountIn, slippageBps, timeBudgetMs } = request
  return (await solver.quote({ tokenIn, tokenOut, amountIn, slippageBps, timeBudgetMs })).expectedAmountOut
}

test("a block landing between the taker's rates and the solve: the plan is priced at the plan's block's rates", async () => {
  const rateAt = (block: bigint) => (block === 7n ? 2n * 10n ** 15n : 9n * 10n ** 15n)
  const bed = await serviceWith({ rateAt, blockLandsDuringTheRead: true })
  const plan = await bed.service.quote(request)
  assert.equal(plan.blockNumber, 8)
  assert.deepEqual(bed.reads, [7n, 8n], 'read at the market block, then again at the plan block')
  assert.deepEqual(bed.quotes, [8, 8], 'solved again once the rate at block 8 was known to differ')
  assert.equal(plan.expectedAmountOut, await paidAtRate(rateAt(8n)))
  assert.notEqual(plan.expectedAmountOut, await paidAtRate(rateAt(7n)), 'the two rates pay differently')
  assert.equal(plan.metadata.takerPricedLegs?.[0]?.mtFeeRate, rateAt(8n).toString())
})

test('a block landing where the taker keeps the same rates: read again, not solved again', async () => {
  const bed = await serviceWith({ rateAt: () => 4n * 10n ** 15n, blockLandsDuringTheRead: true })
  const plan = await bed.service.quote(request)
  assert.equal(plan.blockNumber, 8)
  assert.deepEqual(bed.reads, [7n, 8n])
  assert.deepEqual(bed.quotes, [8], 'one solve')
  assert.equal(plan.expectedAmountOut, await paidAtRate(4n * 10n ** 15n))
})

test('no block landing: one read, one solve', async () => {
  const bed = await serviceWith({ rateAt: () => 4n * 10n ** 15n })
  const plan = await bed.service.quote(request)
  assert.equal(plan.blockNumber, 7)
  assert.deepEqual(bed.reads, [7n])
  assert.deepEqual(bed.quotes, [7])
})
