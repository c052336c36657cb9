import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, encodeFunctionData, parseAbi, zeroAddress } from 'viem'
import { type Devnet, startDevnet } from '../../src/devnet/startDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { RoutePlan } from '../../src/router/routePlanTypes.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createRouterMarket, encodePoolKey, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, routeLeg, routePlan, v3Path } from './planBuilders.ts'
import { quoteV2, quoteV3Style, quoteV4 } from './quotePool.ts'
import { routerRevert, sendRouterCall } from './routerCall.ts'

// Each leg kind against a real pool (npm bytecode on anvil): the recipient gets exactly what the
// pool itself pays for the same exact-input swap, and the router keeps nothing.

const pancakeSlot0Abi = parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint32, bool)'])
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF'
const ONE = 10n ** 18n
let devnet: Devnet
let market: RouterMarket
const gas: { label: string; gasUsed: bigint }[] = []

beforeAll(async () => {
  devnet = await startDevnet({})
  market = await createRouterMarket({ devnet })
  // Gas is recorded with the payees already holding every token (no zero-to-nonzero balance write).
  for (const holder of [RECIPIENT]) {
    for (const t of [market.tokens.a, market.tokens.b, market.tokens.c, market.weth]) {
      await writeContractAndWait({ devnet, address: t, abi: erc20Abi, functionName: 'transfer', args: [holder, 1n] })
    }
  }
})
afterAll(async () => {
  if (gas.length) console.log(`\nrouter gas by leg kind (whole tx, 1 route × 1 leg unless noted):\n${gas.map((g) => `  ${g.label.padEnd(48)} ${g.gasUsed}`).join('\n')}`)
  await devnet?.stop()
})

async function swap(plan: RoutePlan, label: string, tokenOut: Address | 'native' = plan.tokenOut) {
  const { data, value } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE })
  const result = await sendRouterCall({ market, data, value, recipient: RECIPIENT, tokenOut })
  gas.push({ label, gasUsed: result.receipt.gasUsed })
  return result
}

test('v2_direct (30 bps) pays the V2 pair formula exactly, both directions', async () => {
  const { a, b } = market.tokens
  for (const [tin, tout] of [[a, b], [b, a]] as const) {
    const expected = await quoteV2({ market, pair: market.v2.ab, tokenIn: tin, tokenOut: tout, amountIn: ONE, feeBps: 30n })
    const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(tin, tout, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 })] }]), 'v2_direct')
    assert.equal(received, expected)
  }
})

test('v2_direct takes its fee from the leg: 25 bps asks a 30-bps pair for more (K fails) and pays the 25-bps formula when the pair is covered', async () => {
  const { a, b } = market.tokens
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 25 })] }])
  const { data } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE })
  assert.equal(await routerRevert({ market, data }), 'Error(UniswapV2: K)')
  const expected25 = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 25n })
  const expected30 = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 30n })
  assert.ok(expected25 > expected30)
  // A donation to the pair (not in its reserves) makes the pair's 0.3% K check pass; the router
  // still prices from the reserves with the leg's 25 bps.
  await writeContractAndWait({ devnet, address: a, abi: erc20Abi, functionName: 'transfer', args: [market.v2.ab, ONE / 100n] })
  const { received } = await sendRouterCall({ market, data, recipient: RECIPIENT, tokenOut: b })
  assert.equal(received, expected25)
})

test('v3_direct pays what the Uniswap V3 pool pays, both directions', async () => {
  const { a, b } = market.tokens
  for (const [tin, tout] of [[a, b], [b, a]] as const) {
    const expected = await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: tin, tokenOut: tout, amountIn: ONE })
    const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(tin, tout, { kind: 'v3_direct', pool: market.v3.ab3000 })] }]), 'v3_direct (fee 3000, 0 crossings)')
    assert.equal(received, expected)
  }
})

test('algebra_direct pays what the Algebra Integral pool pays, both directions', async () => {
  const { a, b } = market.tokens
  for (const [tin, tout] of [[a, b], [b, a]] as const) {
    const expected = await quoteV3Style({ market, pool: market.algebra.ab, tokenIn: tin, tokenOut: tout, amountIn: ONE, algebra: true })
    const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(tin, tout, { kind: 'algebra_direct', pool: market.algebra.ab })] }]), 'algebra_direct (no plugin)')
    assert.equal(received, expected)
  }
})

test('hydrex (pool from poolId) pays what an Algebra Integral pool with the adaptive-fee plugin pays', async () => {
  const { b, c } = market.tokens
  const pool = market.algebra.bcPlugin
  const expected = await quoteV3Style({ market, pool, tokenIn: b, tokenOut: c, amountIn: ONE, algebra: true })
  const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(b, c, { kind: 'hydrex' }, { poolId: pool })] }]), 'hydrex (Algebra + base plugin)')
  assert.equal(received, expected)
})

test('univ4 swaps exact input on a hookless PoolKey inside the router own unlock, both directions', async () => {
  const { a, b } = market.tokens
  const key = market.v4.ab
  const inputs = [encodePoolKey(key)]
  for (const [tin, tout] of [[a, b], [b, a]] as const) {
    const expected = await quoteV4({ market, key, zeroForOne: tin === key.currency0, amountIn: ONE })
    const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(tin, tout, { kind: 'univ4', commands: '0x10', inputs })] }]), 'univ4 (fee 3000)')
    assert.equal(received, expected)
  }
})

test('univ4 on a native-ETH PoolKey trades WETH on the leg (unwrap to settle, wrap what is taken)', async () => {
  const { a } = market.tokens
  const key = market.v4.nativeA
  const inputs = [encodePoolKey(key)]
  const wethToA = await quoteV4({ market, key, zeroForOne: true, amountIn: ONE })
  const r1 = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(market.weth, a, { kind: 'univ4', commands: '0x10', inputs })] }]), 'univ4 native pool, WETH in')
  assert.equal(r1.received, wethToA)
  const aToWeth = await quoteV4({ market, key, zeroForOne: false, amountIn: ONE })
  const r2 = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(a, market.weth, { kind: 'univ4', commands: '0x10', inputs })] }]), 'univ4 native pool, WETH out')
  assert.equal(r2.received, aToWeth)
})

test('univ2 legacy path goes pair to pair through the configured V2 factory (CREATE2 addresses)', async () => {
  const { a, b, c } = market.tokens
  const mid = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 30n })
  const expected = await quoteV2({ market, pair: market.v2.bc, tokenIn: b, tokenOut: c, amountIn: mid, feeBps: 30n })
  const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(a, c, { kind: 'univ2', path: [a, b, c] })] }]), 'univ2 legacy path, 2 hops')
  assert.equal(received, expected)
})

test('univ3 legacy path runs each hop on the CREATE2 pool of the configured V3 factory', async () => {
  const { a, b, c } = market.tokens
  const mid = await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: a, tokenOut: b, amountIn: ONE })
  const expected = await quoteV3Style({ market, pool: market.v3.bc500, tokenIn: b, tokenOut: c, amountIn: mid })
  const { received } = await swap(routePlan([{ amountIn: ONE, legs: [routeLeg(a, c, { kind: 'univ3', path: v3Path([a, 3000, b, 500, c]) })] }]), 'univ3 legacy path, 2 hops')
  assert.equal(received, expected)
})

test('pancake_v3_direct pays what a real PancakeSwap V3 pool pays (pancakeV3SwapCallback), both directions, crossing ticks', async () => {
  // Published PancakeV3Pool bytecode: it calls back pancakeV3SwapCallback, which shares the guarded
  // payment path (its guard against other callers is in security.test.ts).
  const { a, b } = market.tokens
  const pool = market.pancake.ab2500
  for (const [tin, tout, amountIn] of [[a, b, ONE], [b, a, ONE], [a, b, 3n * 10n ** 23n]] as const) {
    const expected = await quoteV3Style({ market, pool, tokenIn: tin, tokenOut: tout, amountIn })
    const { received } = await swap(
      routePlan([{ amountIn, legs: [routeLeg(tin, tout, { kind: 'pancake_v3_direct', pool })] }]),
      amountIn === ONE ? 'pancake_v3_direct (fee 2500, 0 crossings)' : 'pancake_v3_direct (fee 2500, crosses a tick)',
    )
    assert.equal(received, expected)
  }
  // The large trade took the price out of the ±1000-tick position: it crossed one of its ticks.
  const [, tick] = await devnet.publicClient.readContract({ address: pool, abi: pancakeSlot0Abi, functionName: 'slot0' })
  assert.ok(Math.abs(tick) > 1000, `tick after the large trade: ${tick}`)
})

test('reserved and unknown leg kinds revert UnsupportedLegKind', async () => {
  const { a, b } = market.tokens
  for (const kind of [8, 9, 10, 11, 12, 13, 255]) {
    const data = encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [{
        tokenIn: a, tokenOut: b, amountIn: ONE, minAmountOut: 0n, recipient: RECIPIENT, feeBps: 0, feeRecipient: zeroAddress,
        nativeIn: false, nativeOut: false, deadline: FAR_DEADLINE,
        routes: [{ amountIn: ONE, legs: [{ kind, pool: market.v2.ab, tokenIn: a, tokenOut: b, minOut: 0n, data: '0x' }] }],
      }],
    })
    assert.equal(await routerRevert({ market, data }), `UnsupportedLegKind(${kind})`)
  }
})
