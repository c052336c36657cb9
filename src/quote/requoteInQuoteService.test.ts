import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, getAddress } from 'viem'
import { loadSolver, type Solver } from '../../bindings/index.ts'
import type { PoolInput } from '../../bindings/types.ts'
import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'
import type { PropAmmQuoteAsk } from '../adapters/propAmm/propAmmQuotesAsExecutor.ts'
import { createQuoteService } from './createQuoteService.ts'
import { QuoteMarketStaleError } from './errors.ts'

// The quote service's re-quote of sampled legs on the native solver and a one-venue market (no
// chain: the venue's answers are given): the plan takes them, lists the leg in metadata, derives
// its minimum; a refusal is a 503-class error; without a re-quote the sampled amounts stand.

const token = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const [WETH, USDC] = [token(0xa1), token(0xb2)]
const ENTRY = token(0xe1)
const VENUE = token(0x9001).toLowerCase()
const ONE = 10n ** 18n
const venue: PoolInput = {
  id: VENUE,
  dex: 'FELTIR',
  tokens: [WETH, USDC],
  state: {
    model: 'sampled',
    marginBps: 10,
    zeroForOne: [1n, 10n, 100n].map((n) => [(n * ONE).toString(), (n * 3_000n * 10n ** 6n).toString()] as [string, string]),
    oneForZero: [],
  },
}

let solver: Solver
beforeAll(async () => {
  solver = await loadSolver({ nativeToken: WETH }, { backend: 'native' })
  await solver.applyBlock({ blockNumber: 7, upserts: [venue] })
})
afterAll(async () => {
  await solver?.close()
})

const serviceWith = (requoteSampled?: (asks: PropAmmQuoteAsk[]) => Promise<{ blockNumber: bigint; amounts: (bigint | undefined)[] }>) =>
  createQuoteService({
    solver,
    market: {
      assertFresh: () => {},
      encodeLeg: () => ({ kind: 'prop_amm' as const, router: ENTRY, protocol: 'feltir' as const }),
      pools: () => [
        { ref: { id: VENUE, dex: 'FELTIR', emitter: VENUE, entry: ENTRY }, input: venue, refreshEveryBlock: true } as PoolSnapshot,
      ],
    },
    chainId: 8453,
    weth: WETH,
    router: token(0x7777),
    getGasPriceWei: async () => 0n,
    requoteSampled,
  })
const request = { chainId: 8453, tokenIn: WETH, tokenOut: USDC, amountIn: (2n * ONE).toString(), slippageBps: 50 }

test("the plan takes the venue's answer at the leg's input, lists the leg and leaves the margin in its minOut", async () => {
  const asked: PropAmmQuoteAsk[][] = []
  const quoted = 6_004_000_000n
  const plan = await serviceWith(async (asks) => {
    asked.push(asks)
    return { blockNumber: 8n, amounts: [quoted] }
  }).quote(request)
  assert.deepEqual(asked, [[{ dex: 'FELTIR', entry: ENTRY, tokenIn: WETH, tokenOut: USDC, amountIn: 2n * ONE }]])
  assert.equal(plan.expectedAmountOut, quoted.toString())
  assert.equal(plan.minAmountOut, ((quoted * 9_950n) / 10_000n).toString())
  assert.equal(plan.routes[0].legs[0].minOut, ((((quoted * 9_990n) / 10_000n) * 9_950n) / 10_000n).toString())
  const sampledOut = (6_000n * 10n ** 6n * 9_990n) / 10_000n // the sampled curve less its 10 bps margin
  assert.deepEqual(plan.metadata.sampledLegs, [
    {
      route: 0,
      leg: 0,
      poolId: VENUE,
      dex: 'FELTIR',
      marginBps: 10,
      sampledOut: sampledOut.toString(),
      quotedOut: quoted.toString(),
      quotedAtBlock: 8,
    },
  ])
})

test('a venue that refuses its leg now makes the quote a stale-market refusal naming it (the market has not moved)', async () => {
  await assert.rejects(
    serviceWith(async () => ({ blockNumber: 8n, amounts: [undefined] })).quote(request),
    (error: Error) => error instanceof QuoteMarketStaleError && error.message.includes(`FELTIR ${VENUE} refuses`),
  )
})

test('without a re-quote the sampled amounts are the plan, with no quotedAtBlock', async () => {
  const plan = await serviceWith().quote(request)
  assert.equal(plan.metadata.sampledLegs?.[0].quotedOut, plan.metadata.sampledLegs?.[0].sampledOut)
  assert.equal(plan.metadata.sampledLegs?.[0].quotedAtBlock, undefined)
  assert.equal(plan.expectedAmountOut, plan.metadata.sampledLegs?.[0].quotedOut)
})
