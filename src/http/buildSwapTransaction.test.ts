import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import type { QuoteRoutePlan } from '../quote/quoteTypes.ts'
import { buildSwapTransaction } from './buildSwapTransaction.ts'
import { BadRequestError } from './errors.ts'

const ROUTER: Address = '0xABcDef1111111111111111111111111111111111'
const WETH: Address = '0x4200000000000000000000000000000000000006'
const A: Address = '0x000000000000000000000000000000000000000A'
const POOL: Address = '0x00000000000000000000000000000000000000F1'
const plan = {
  chainId: 8453,
  tokenIn: WETH,
  tokenOut: A,
  amountIn: '1000',
  expectedAmountOut: '990',
  minAmountOut: '980',
  feeBps: 0,
  slippageBps: 50,
  routes: [
    {
      amountIn: '1000',
      legs: [
        {
          dex: 'UNIV2',
          tokenIn: WETH,
          tokenOut: A,
          amountIn: '1000',
          minOut: '0',
          poolId: POOL,
          data: { kind: 'v2_direct', pool: POOL, feeBps: 30 },
        },
      ],
    },
  ],
  blockNumber: 1,
  gasEstimate: { gasUnits: 100_000, gasCostWei: '0' },
  feeBreakdown: { protocolFeeAmount: '0', integratorFeeAmount: '0' },
  metadata: { connectorsConsidered: [], candidatePaths: 1, selectedPaths: 1, candidates: [], stoppedBy: 'converged', maxHopsSearched: 3 },
  nativeIn: false,
  nativeOut: false,
} as QuoteRoutePlan

test('user equal to the router is a 400 naming user, whatever its letter case (/submit and /execute both build here)', () => {
  for (const user of [ROUTER, ROUTER.toLowerCase() as Address]) {
    assert.throws(
      () => buildSwapTransaction({ plan, router: ROUTER, weth: WETH, user, deadlineSec: 1n }),
      (e: unknown) => e instanceof BadRequestError && e.statusCode === 400 && e.message.startsWith('user: '),
    )
  }
  const { to } = buildSwapTransaction({
    plan,
    router: ROUTER,
    weth: WETH,
    user: '0x2222222222222222222222222222222222222222',
    deadlineSec: 1n,
  })
  assert.equal(to.toLowerCase(), ROUTER.toLowerCase())
})
