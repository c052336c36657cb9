import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, encodeAbiParameters, encodeFunctionData, getAddress, parseAbi, zeroAddress } from 'viem'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import type { PancakeInfinityPoolKey } from '../../src/adapters/poolKeys/pancakeInfinityPoolKey.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { aerodromeRoutesAbi } from '../../src/router/encodeRouterLeg.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { LegData, RoutePlan } from '../../src/router/routePlanTypes.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createRouterMarket, encodePoolKey, givePayeesEveryToken, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { aerodromeLeg, FAR_DEADLINE, infinityLeg, rawSwapParams, routeLeg, routePlan, v3Path } from './planBuilders.ts'
import { quoteAerodrome, quoteInfinity, quoteV2, quoteV3Style, quoteV4 } from './quotePool.ts'
import { routerRevert, sendRouterCall } from './routerCall.ts'

// Each leg kind against a real pool (npm bytecode on anvil): the recipient gets exactly what the
// pool itself pays for the same exact-input swap, and the router keeps nothing.

const pancakeSlot0Abi = parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint32, bool)'])
const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF'
const ONE = 10n ** 18n
const devnet = useDevnet()
let market: RouterMarket
const gas: { label: string; gasUsed: bigint }[] = []

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  await givePayeesEveryToken({ devnet, market, payees: [RECIPIENT] })
})
afterAll(async () => {
  if (gas.length)
    console.log(
      `\nrouter gas by leg kind (whole tx, 1 route × 1 leg unless noted):\n${gas.map((g) => `  ${g.label.padEnd(48)} ${g.gasUsed}`).join('\n')}`,
    )
})

async function swap(plan: RoutePlan, label: string, tokenOut: Address | 'native' = plan.tokenOut) {
  const { data, value } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE })
  const result = await sendRouterCall({ market, data, value, recipient: RECIPIENT, tokenOut })
  gas.push({ label, gasUsed: result.receipt.gasUsed })
  return result
}

/** `a` → `b` and `b` → `a`, ONE each. */
const bothWays = (a: Address, b: Address) =>
  [
    [a, b, ONE],
    [b, a, ONE],
  ] as const

/**
 * Swaps each trade through a one-leg plan and asserts the recipient got exactly what the pool itself
 * pays for the same swap (`quote`); `label` names the trade's gas row.
 */
async function assertLegPaysThePool({
  trades,
  leg,
  quote,
  label,
}: {
  trades: readonly (readonly [Address, Address, bigint])[]
  leg: LegData
  quote: (tokenIn: Address, tokenOut: Address, amountIn: bigint) => Promise<bigint>
  label: string | ((amountIn: bigint) => string)
}) {
  for (const [tin, tout, amountIn] of trades) {
    const expected = await quote(tin, tout, amountIn)
    const name = typeof label === 'string' ? label : label(amountIn)
    const { received } = await swap(routePlan([{ amountIn, legs: [routeLeg(tin, tout, leg)] }]), name)
    assert.equal(received, expected, `${name}: ${tin} → ${tout}`)
  }
}

test('v2_direct (30 bps) pays the V2 pair formula exactly, both directions', async () => {
  const { a, b } = market.tokens
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 },
    quote: (tokenIn, tokenOut, amountIn) => quoteV2({ market, pair: market.v2.ab, tokenIn, tokenOut, amountIn, feeBps: 30n }),
    label: 'v2_direct',
  })
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
  const pool = market.v3.ab3000
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: { kind: 'v3_direct', pool },
    quote: (tokenIn, tokenOut, amountIn) => quoteV3Style({ market, pool, tokenIn, tokenOut, amountIn }),
    label: 'v3_direct (fee 3000, 0 crossings)',
  })
})

test('algebra_direct pays what the Algebra Integral pool pays, both directions', async () => {
  const { a, b } = market.tokens
  const pool = market.algebra.ab
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: { kind: 'algebra_direct', pool },
    quote: (tokenIn, tokenOut, amountIn) => quoteV3Style({ market, pool, tokenIn, tokenOut, amountIn, algebra: true }),
    label: 'algebra_direct (no plugin)',
  })
})

test('hydrex (pool from poolId) pays what an Algebra Integral pool with the adaptive-fee plugin pays', async () => {
  const { b, c } = market.tokens
  const pool = market.algebra.bcPlugin
  const expected = await quoteV3Style({ market, pool, tokenIn: b, tokenOut: c, amountIn: ONE, algebra: true })
  const { received } = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(b, c, { kind: 'hydrex' }, { poolId: pool })] }]),
    'hydrex (Algebra + base plugin)',
  )
  assert.equal(received, expected)
})

test('univ4 swaps exact input on a hookless PoolKey inside the router own unlock, both directions', async () => {
  const { a, b } = market.tokens
  const key = market.v4.ab
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(key)] },
    quote: (tokenIn, _tokenOut, amountIn) => quoteV4({ market, key, zeroForOne: tokenIn === key.currency0, amountIn }),
    label: 'univ4 (fee 3000)',
  })
})

test('univ4 on a native-ETH PoolKey trades WETH on the leg (unwrap to settle, wrap what is taken)', async () => {
  const { a } = market.tokens
  const key = market.v4.nativeA
  const inputs = [encodePoolKey(key)]
  const wethToA = await quoteV4({ market, key, zeroForOne: true, amountIn: ONE })
  const r1 = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(market.weth, a, { kind: 'univ4', commands: '0x10', inputs })] }]),
    'univ4 native pool, WETH in',
  )
  assert.equal(r1.received, wethToA)
  const aToWeth = await quoteV4({ market, key, zeroForOne: false, amountIn: ONE })
  const r2 = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(a, market.weth, { kind: 'univ4', commands: '0x10', inputs })] }]),
    'univ4 native pool, WETH out',
  )
  assert.equal(r2.received, aToWeth)
})

test('univ2 legacy path goes pair to pair through the configured V2 factory (CREATE2 addresses)', async () => {
  const { a, b, c } = market.tokens
  const mid = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 30n })
  const expected = await quoteV2({ market, pair: market.v2.bc, tokenIn: b, tokenOut: c, amountIn: mid, feeBps: 30n })
  const { received } = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(a, c, { kind: 'univ2', path: [a, b, c] })] }]),
    'univ2 legacy path, 2 hops',
  )
  assert.equal(received, expected)
})

test('univ3 legacy path runs each hop on the CREATE2 pool of the configured V3 factory', async () => {
  const { a, b, c } = market.tokens
  const mid = await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: a, tokenOut: b, amountIn: ONE })
  const expected = await quoteV3Style({ market, pool: market.v3.bc500, tokenIn: b, tokenOut: c, amountIn: mid })
  const { received } = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(a, c, { kind: 'univ3', path: v3Path([a, 3000, b, 500, c]) })] }]),
    'univ3 legacy path, 2 hops',
  )
  assert.equal(received, expected)
})

test('pancake_v3_direct pays what a real PancakeSwap V3 pool pays (pancakeV3SwapCallback), both directions, crossing ticks', async () => {
  // Published PancakeV3Pool bytecode: it calls back pancakeV3SwapCallback, which shares the guarded
  // payment path (its guard against other callers is in security.test.ts).
  const { a, b } = market.tokens
  const pool = market.pancake.ab2500
  await assertLegPaysThePool({
    trades: [...bothWays(a, b), [a, b, 3n * 10n ** 23n]],
    leg: { kind: 'pancake_v3_direct', pool },
    quote: (tokenIn, tokenOut, amountIn) => quoteV3Style({ market, pool, tokenIn, tokenOut, amountIn }),
    label: (amountIn) => (amountIn === ONE ? 'pancake_v3_direct (fee 2500, 0 crossings)' : 'pancake_v3_direct (fee 2500, crosses a tick)'),
  })
  // The large trade took the price out of the ±1000-tick position: it crossed one of its ticks.
  const [, tick] = await devnet.publicClient.readContract({ address: pool, abi: pancakeSlot0Abi, functionName: 'slot0' })
  assert.ok(Math.abs(tick) > 1000, `tick after the large trade: ${tick}`)
})

test('v2_direct (25 bps) pays the PancakeSwap V2 pair exactly, both directions', async () => {
  const { a, b } = market.tokens
  const pair = market.pancakeV2.ab
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: { kind: 'v2_direct', pool: pair, feeBps: 25 },
    quote: (tokenIn, tokenOut, amountIn) => quoteV2({ market, pair, tokenIn, tokenOut, amountIn, feeBps: 25n }),
    label: 'v2_direct (PancakeSwap V2, 25 bps)',
  })
})

test('aerodrome_v2 pays what the Aerodrome pool pays (stable and volatile, both directions, and two hops pool to pool)', async () => {
  const { a, b, c } = market.tokens
  const { factory, abStable, bcVolatile } = market.aerodrome
  for (const [tin, tout, pool, stable] of [
    [a, b, abStable, true],
    [b, a, abStable, true],
    [b, c, bcVolatile, false],
    [c, b, bcVolatile, false],
  ] as const) {
    // A large trade on the stable pool: the constant-product formula would overpay it.
    const amountIn = stable ? 10n ** 23n : ONE
    const expected = await quoteAerodrome({ market, pool, tokenIn: tin, amountIn })
    const { received } = await swap(
      routePlan([{ amountIn, legs: [routeLeg(tin, tout, aerodromeLeg(factory, [[tin, tout, stable]]))] }]),
      `aerodrome_v2 (${stable ? 'stable, 5 bps' : 'volatile, 30 bps'})`,
    )
    assert.equal(received, expected)
  }
  const mid = await quoteAerodrome({ market, pool: abStable, tokenIn: a, amountIn: ONE })
  const expected = await quoteAerodrome({ market, pool: bcVolatile, tokenIn: b, amountIn: mid })
  const { received } = await swap(
    routePlan([
      {
        amountIn: ONE,
        legs: [
          routeLeg(
            a,
            c,
            aerodromeLeg(factory, [
              [a, b, true],
              [b, c, false],
            ]),
          ),
        ],
      },
    ]),
    'aerodrome_v2 (2 hops, pool to pool)',
  )
  assert.equal(received, expected)
})

test('aerodrome_v2 refuses routes that do not join tokenIn to tokenOut, and a factory without the pool', async () => {
  const { a, b, c } = market.tokens
  const hop = (from: Address, to: Address, stable: boolean, factory: Address = market.aerodrome.factory) => ({ from, to, stable, factory })
  const call = (tin: Address, tout: Address, routes: ReturnType<typeof hop>[]) =>
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [
        rawSwapParams({
          tokenIn: tin,
          tokenOut: tout,
          amountIn: ONE,
          recipient: RECIPIENT,
          leg: { kind: 12, pool: zeroAddress, data: encodeAerodromeRoutes(routes) },
        }),
      ],
    })
  assert.equal(await routerRevert({ market, data: call(a, b, [hop(b, a, true)]) }), 'InvalidLegData(12)')
  assert.equal(await routerRevert({ market, data: call(a, c, [hop(a, b, true), hop(a, c, false)]) }), 'InvalidLegData(12)')
  // Stable B/C does not exist; a factory that is not Aerodrome's (the V2 pair) answers nothing usable.
  assert.equal(await routerRevert({ market, data: call(b, c, [hop(b, c, true)]) }), 'InvalidLegData(12)')
  assert.equal(await routerRevert({ market, data: call(a, b, [hop(a, a, true)]) }), 'InvalidLegData(12)')
})

test('v3_direct pays what a Slipstream pool (an EIP-1167 clone) pays with its module fee, both directions, crossing ticks', async () => {
  // The callback comes from the clone's address (delegatecall keeps it): the router's one rule,
  // "only the pool being called", covers clones without an init-code hash.
  const { a, b } = market.tokens
  const pool = market.slipstream.ab100
  await assertLegPaysThePool({
    trades: [...bothWays(a, b), [a, b, 3n * 10n ** 23n]],
    leg: { kind: 'v3_direct', pool },
    quote: (tokenIn, tokenOut, amountIn) => quoteV3Style({ market, pool, tokenIn, tokenOut, amountIn }),
    label: (amountIn) => (amountIn === ONE ? 'v3_direct (Slipstream, module fee)' : 'v3_direct (Slipstream, crosses a tick)'),
  })
  const code = await devnet.publicClient.getCode({ address: pool })
  assert.equal((code!.length - 2) / 2, 45, 'the Slipstream pool is not an EIP-1167 clone')
})

test('pancake_infinity_cl swaps exact input on a PoolKey inside the router own lock of the Vault (protocol fee above V4 cap), both directions', async () => {
  const { a, b } = market.tokens
  const key = market.infinity.ab
  await assertLegPaysThePool({
    trades: bothWays(a, b),
    leg: infinityLeg(key),
    quote: (tokenIn, _tokenOut, amountIn) => quoteInfinity({ market, key, zeroForOne: tokenIn === key.currency0, amountIn }),
    label: 'pancake_infinity_cl (fee 2500, protocol 4000/2000)',
  })
})

test('pancake_infinity_cl on a native PoolKey trades WETH on the leg (unwrap to settle, wrap what is taken)', async () => {
  const { a } = market.tokens
  const key = market.infinity.nativeA
  const wethToA = await quoteInfinity({ market, key, zeroForOne: true, amountIn: ONE })
  const r1 = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(market.weth, a, infinityLeg(key))] }]),
    'pancake_infinity_cl native pool, WETH in',
  )
  assert.equal(r1.received, wethToA)
  const aToWeth = await quoteInfinity({ market, key, zeroForOne: false, amountIn: ONE })
  const r2 = await swap(
    routePlan([{ amountIn: ONE, legs: [routeLeg(a, market.weth, infinityLeg(key))] }]),
    'pancake_infinity_cl native pool, WETH out',
  )
  assert.equal(r2.received, aToWeth)
})

test('pancake_infinity_cl refuses a key of another pool manager and tokens the key does not hold; without Infinity it reverts InfinityNotSet', async () => {
  const { a, b, c } = market.tokens
  const legData = (key: PancakeInfinityPoolKey, tin: Address, tout: Address, router = market.router) => ({
    router,
    data: encodeSwapExactIn({
      plan: routePlan([{ amountIn: ONE, legs: [routeLeg(tin, tout, infinityLeg(key))] }]),
      recipient: RECIPIENT,
      deadline: FAR_DEADLINE,
    }).data,
  })
  const foreign = { ...market.infinity.ab, poolManager: market.v4.poolManager }
  assert.equal(await routerRevert({ market, ...legData(foreign, a, b) }), 'InvalidLegData(13)')
  assert.equal(await routerRevert({ market, ...legData(market.infinity.ab, a, c) }), 'InvalidLegData(13)')
  const bare = await deployRouter({ devnet, weth: market.weth })
  await writeContractAndWait({ devnet, address: a, abi: erc20Abi, functionName: 'approve', args: [bare, ONE] })
  assert.equal(
    await routerRevert({ market: { ...market, router: bare }, data: legData(market.infinity.ab, a, b).data }),
    'InfinityNotSet()',
  )
})

test('unknown leg kinds revert UnsupportedLegKind (kinds 8 to 11, 14 and 15 are tested in test/router/curveLegs, propAmmLegs, dodoLegs, woofiLegs, balancerVaultLegs and maverickV2Legs)', async () => {
  const { a, b } = market.tokens
  for (const kind of [16, 255]) {
    const data = encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [
        {
          tokenIn: a,
          tokenOut: b,
          amountIn: ONE,
          minAmountOut: 0n,
          recipient: RECIPIENT,
          feeBps: 0,
          feeRecipient: zeroAddress,
          nativeIn: false,
          nativeOut: false,
          deadline: FAR_DEADLINE,
          routes: [{ amountIn: ONE, legs: [{ kind, pool: market.v2.ab, tokenIn: a, tokenOut: b, minOut: 0n, data: '0x' }] }],
        },
      ],
    })
    assert.equal(await routerRevert({ market, data }), `UnsupportedLegKind(${kind})`)
  }
})

/** abi.encode(AerodromeRoute[]), the router's `aerodrome_v2` Leg.data. */
function encodeAerodromeRoutes(routes: { from: Address; to: Address; stable: boolean; factory: Address }[]) {
  return encodeAbiParameters(aerodromeRoutesAbi, [routes])
}
