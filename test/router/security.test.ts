import assert from 'node:assert/strict'
import { beforeAll, beforeEach, test } from 'vitest'
import { type Address, encodeFunctionData, getAddress, type Hex, zeroAddress } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createRouterMarket, encodePoolKey, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { deployTokenWithPoolAgainstA } from './deployTokenWithPoolAgainstA.ts'
import { FAR_DEADLINE, type RawSwapParams, rawSwapParams, routeLeg, routePlan } from './planBuilders.ts'
import { assertRouterEmpty, routerRevert, sendRouterCall } from './routerCall.ts'

// Every security property of the router, each against real pools or a hostile contract of ours.

const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF'
const ONE = 10n ** 18n
const MAX_UINT = 2n ** 256n - 1n
const devnet = useDevnet()
let market: RouterMarket
let snapshot: Hex

type RawParams = RawSwapParams

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  snapshot = await devnet.testClient.snapshot()
})
beforeEach(async () => {
  snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
})

function rawParams(overrides: Partial<RawParams> = {}): RawParams {
  const { a, b } = market.tokens
  const v2Leg = { kind: 0, pool: market.v2.ab, data: `0x${(30).toString(16).padStart(64, '0')}` as const }
  return { ...rawSwapParams({ tokenIn: a, tokenOut: b, amountIn: ONE, recipient: RECIPIENT, leg: v2Leg }), ...overrides }
}
const swapData = (params: RawParams) => encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactIn', args: [params] })

test('a swap callback from anything but the pool being swapped is refused (fake pool, EOA), even with tokens in the router', async () => {
  const { a } = market.tokens
  // Tokens sent to the router by mistake are what a callback bypass would steal.
  await writeContractAndWait({ devnet, address: a, abi: erc20Abi, functionName: 'transfer', args: [market.router, ONE] })
  const fake = await deployContractAndWait({ devnet, artifact: devnet.artifacts.FakeCallbackPool })
  for (const name of ['uniswapV3SwapCallback', 'pancakeV3SwapCallback', 'algebraSwapCallback'] as const) {
    const call = encodeFunctionData({ abi: swapRouterAbi, functionName: name, args: [ONE, ONE, '0x'] })
    const poke = encodeFunctionData({ abi: devnet.artifacts.FakeCallbackPool.abi, functionName: 'poke', args: [market.router, call] })
    const viaFake = await sendAndWait({ devnet, to: fake, data: poke, throwOnRevert: false })
    assert.equal(viaFake.status, 'reverted')
    assert.equal(await routerRevert({ market, data: call }), `UnexpectedCallback(${getAddress(devnet.account)})`)
  }
  const balance = await devnet.publicClient.readContract({ address: a, abi: erc20Abi, functionName: 'balanceOf', args: [market.router] })
  assert.equal(balance, ONE)
})

/** A singleton's callback into the router is refused from anyone, and from the singleton itself while no call of the router's own is pending. */
async function assertCallbackRefused(call: Hex, singleton: Address) {
  assert.equal(await routerRevert({ market, data: call }), `UnexpectedCallback(${getAddress(devnet.account)})`)
  await devnet.testClient.impersonateAccount({ address: singleton })
  await devnet.testClient.setBalance({ address: singleton, value: ONE })
  assert.equal(await routerRevert({ market, data: call, from: singleton }), `UnexpectedCallback(${getAddress(singleton)})`)
}

test("V4's unlockCallback is refused outside the router's own unlock", async () => {
  const call = encodeFunctionData({ abi: swapRouterAbi, functionName: 'unlockCallback', args: [encodePoolKey(market.v4.ab)] })
  await assertCallbackRefused(call, market.v4.poolManager)
})

test("Infinity's lockAcquired is refused outside the router's own lock, from the Vault too", async () => {
  const call = encodeFunctionData({ abi: swapRouterAbi, functionName: 'lockAcquired', args: ['0x'] })
  await assertCallbackRefused(call, market.infinity.vault)
})

test('a pool that misbehaves in swap is refused: asks for less input, never calls back, calls back twice, reports less', async () => {
  const { a, b } = market.tokens
  const fake = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.FakeCallbackPool }))
  const expected = [
    `PartialFill(${fake}, ${ONE / 2n}, ${ONE})`,
    `CallbackNotCalled(${fake})`,
    `UnexpectedCallback(${fake})`,
    `PartialFill(${fake}, ${ONE - 1n}, ${ONE})`,
  ]
  for (const [mode, reason] of expected.entries()) {
    await writeContractAndWait({ devnet, address: fake, abi: devnet.artifacts.FakeCallbackPool.abi, functionName: 'setMode', args: [mode] })
    const params = rawParams({
      routes: [{ amountIn: ONE, legs: [{ kind: 1, pool: fake, tokenIn: a, tokenOut: b, minOut: 0n, data: '0x' }] }],
    })
    assert.equal(await routerRevert({ market, data: swapData(params) }), reason, `mode ${mode}`)
  }
})

test('partial fills revert: a real V3 pool and a real V4 pool stopped by the price limit take less than amountIn', async () => {
  const { a, c } = market.tokens
  const big = 1000n * ONE
  const v3 = routePlan([{ amountIn: big, legs: [routeLeg(a, c, { kind: 'v3_direct', pool: market.v3.acNarrow })] }])
  assert.match(
    await routerRevert({ market, data: encodeSwapExactIn({ plan: v3, recipient: RECIPIENT, deadline: FAR_DEADLINE }).data }),
    /^PartialFill\(/,
  )
  const v4 = routePlan([
    { amountIn: big, legs: [routeLeg(a, c, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.acNarrow)] })] },
  ])
  assert.match(
    await routerRevert({ market, data: encodeSwapExactIn({ plan: v4, recipient: RECIPIENT, deadline: FAR_DEADLINE }).data }),
    /^V4DeltaMismatch\(-\d+, \d+\)$/,
  )
})

test('reentrancy is refused: a token reentering swapExactIn from transferFrom, and a token calling the swap callback during payment', async () => {
  const { a } = market.tokens
  const { token, pool } = await deployTokenWithPoolAgainstA({ devnet, market, artifact: devnet.artifacts.ReentrantToken })
  const tokenAbi = devnet.artifacts.ReentrantToken.abi
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(token, a, { kind: 'v3_direct', pool })] }])
  const { data } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE })
  // Unarmed, the token trades normally (the pool is sound).
  assert.equal((await sendAndWait({ devnet, to: market.router, data, throwOnRevert: false })).status, 'success')
  await writeContractAndWait({ devnet, address: token, abi: tokenAbi, functionName: 'arm', args: [market.router, data] })
  assert.equal(await routerRevert({ market, data }), 'Reentrancy()')
  const callback = encodeFunctionData({ abi: swapRouterAbi, functionName: 'uniswapV3SwapCallback', args: [ONE, ONE, '0x'] })
  await writeContractAndWait({ devnet, address: token, abi: tokenAbi, functionName: 'arm', args: [market.router, callback] })
  // transferFrom (the pull) reenters first: the callback slot is empty then.
  assert.equal(await routerRevert({ market, data }), `UnexpectedCallback(${getAddress(token)})`)
})

test('an expired deadline reverts', async () => {
  const block = await devnet.publicClient.getBlock()
  const params = rawParams({ deadline: block.timestamp - 1n })
  assert.match(await routerRevert({ market, data: swapData(params) }), /^DeadlineExpired\(/)
})

test('route inputs must add up to amountIn; empty and zero routes are refused', async () => {
  const base = rawParams()
  const leg = base.routes[0].legs[0]
  const revertOf = (params: Partial<typeof base>) => routerRevert({ market, data: swapData({ ...base, ...params }) })
  /** The plan's route, then a second one of `amountIn` over the same leg. */
  const withSecondRoute = (amountIn: bigint) => ({
    routes: [
      { amountIn: ONE, legs: [leg] },
      { amountIn, legs: [leg] },
    ],
  })
  assert.equal(await revertOf({ amountIn: ONE + 1n }), `AmountInMismatch(${ONE}, ${ONE + 1n})`)
  assert.equal(await revertOf(withSecondRoute(1n)), `AmountInMismatch(${ONE + 1n}, ${ONE})`)
  assert.equal(await revertOf({ routes: [] }), 'NoRoutes()')
  assert.equal(await revertOf({ routes: [{ amountIn: ONE, legs: [] }] }), 'EmptyRoute(0)')
  assert.equal(await revertOf(withSecondRoute(0n)), 'ZeroRouteAmount(1)')
})

test('each leg minOut and the total minAmountOut are enforced', async () => {
  const { a, b, c } = market.tokens
  const plan = (legMin: bigint, totalMin: bigint) =>
    routePlan(
      [
        {
          amountIn: ONE,
          legs: [
            routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 }, { minOut: legMin }),
            routeLeg(b, c, { kind: 'v2_direct', pool: market.v2.bc, feeBps: 30 }),
          ],
        },
      ],
      { minAmountOut: totalMin },
    )
  const data = (p: ReturnType<typeof plan>) => encodeSwapExactIn({ plan: p, recipient: RECIPIENT, deadline: FAR_DEADLINE }).data
  assert.match(
    await routerRevert({ market, data: data(plan(10n ** 30n, 0n)) }),
    /^LegMinOut\(0, 0, \d+, 1000000000000000000000000000000\)$/,
  )
  assert.match(
    await routerRevert({ market, data: data(plan(0n, 10n ** 30n)) }),
    /^InsufficientOutput\(\d+, 1000000000000000000000000000000\)$/,
  )
})

test('leg tokens must chain from tokenIn to tokenOut; bad native use and bad fee settings are refused', async () => {
  const { a, b, c } = market.tokens
  const base = rawParams()
  const leg = base.routes[0].legs[0]
  assert.equal(await routerRevert({ market, data: swapData({ ...base, tokenOut: c }) }), 'LegTokenMismatch(0, 0)')
  assert.equal(
    await routerRevert({ market, data: swapData({ ...base, routes: [{ amountIn: ONE, legs: [{ ...leg, tokenIn: c }] }] }) }),
    'LegTokenMismatch(0, 0)',
  )
  assert.equal(await routerRevert({ market, data: swapData(base), value: 1n }), 'NativeValueMismatch(1, 0)')
  assert.equal(
    await routerRevert({ market, data: swapData({ ...base, nativeIn: true }), value: ONE }),
    `NotWrappedNative(${getAddress(a)})`,
  )
  assert.equal(await routerRevert({ market, data: swapData({ ...base, nativeOut: true }) }), `NotWrappedNative(${getAddress(b)})`)
  assert.equal(await routerRevert({ market, data: swapData({ ...base, feeBps: 10_001 }) }), 'InvalidFeeBps(10001)')
  assert.equal(await routerRevert({ market, data: swapData({ ...base, feeBps: 1 }) }), 'InvalidFeeRecipient()')
  assert.equal(await routerRevert({ market, data: swapData({ ...base, recipient: zeroAddress }) }), 'InvalidRecipient()')
  const direct = await sendAndWait({ devnet, to: market.router, data: '0x', value: 1n, throwOnRevert: false })
  assert.equal(direct.status, 'reverted')
})

test("no routes is the router's own wrap or unwrap alone: exact, nothing left behind; refused unless WETH on both sides and exactly one native end", async () => {
  const { a } = market.tokens
  const weth = market.weth
  const wrap = rawParams({ tokenIn: weth, tokenOut: weth, nativeIn: true, routes: [] })
  const wrapped = await sendRouterCall({ market, data: swapData(wrap), value: ONE, recipient: RECIPIENT, tokenOut: weth })
  assert.equal(wrapped.received, ONE, 'ETH in, exactly as much WETH out')
  const unwrap = { ...wrap, nativeIn: false, nativeOut: true, feeBps: 30, feeRecipient: getAddress(a) }
  const unwrapped = await sendRouterCall({ market, data: swapData(unwrap), recipient: RECIPIENT, tokenOut: 'native' })
  assert.equal(unwrapped.received, ONE - (ONE * 30n) / 10_000n, 'WETH in, ETH out less the fee (paid in WETH)')
  await assertRouterEmpty(market)

  assert.equal(await routerRevert({ market, data: swapData({ ...wrap, nativeIn: false }) }), 'NoRoutes()', 'neither end native')
  assert.equal(await routerRevert({ market, data: swapData({ ...wrap, nativeOut: true }), value: ONE }), 'NoRoutes()', 'both ends native')
  assert.equal(
    await routerRevert({ market, data: swapData({ ...wrap, tokenIn: a, tokenOut: a, nativeIn: false, nativeOut: true }) }),
    'NoRoutes()',
    'not WETH',
  )
  assert.equal(
    await routerRevert({ market, data: swapData({ ...wrap, minAmountOut: ONE + 1n }), value: ONE }),
    `InsufficientOutput(${ONE}, ${ONE + 1n})`,
    'the minimum holds on a wrap too',
  )
})

test('a router without a PoolManager or legacy factories reverts those legs by name', async () => {
  const { a, b, c } = market.tokens
  const bare = await deployRouter({ devnet, weth: market.weth })
  for (const t of [a, b]) await writeContractAndWait({ devnet, address: t, abi: erc20Abi, functionName: 'approve', args: [bare, MAX_UINT] })
  const call = (plan: ReturnType<typeof routePlan>) =>
    routerRevert({
      market: { ...market, router: bare },
      data: encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE }).data,
    })
  assert.equal(
    await call(
      routePlan([{ amountIn: ONE, legs: [routeLeg(a, b, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.ab)] })] }]),
    ),
    'PoolManagerNotSet()',
  )
  assert.equal(
    await call(routePlan([{ amountIn: ONE, legs: [routeLeg(a, c, { kind: 'univ2', path: [a, b, c] })] }])),
    'LegacyFactoryNotSet(6)',
  )
})

test('the router holds nothing after a successful multi-route swap (tokens and ETH)', async () => {
  const { a, b } = market.tokens
  const plan = routePlan([
    { amountIn: ONE, legs: [routeLeg(a, b, { kind: 'v3_direct', pool: market.v3.ab3000 })] },
    { amountIn: ONE, legs: [routeLeg(a, b, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.ab)] })] },
    {
      amountIn: ONE,
      legs: [
        routeLeg(a, market.weth, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.nativeA)] }),
        routeLeg(market.weth, a, { kind: 'v2_direct', pool: market.v2.wethA, feeBps: 30 }),
        routeLeg(a, b, { kind: 'algebra_direct', pool: market.algebra.ab }),
      ],
    },
  ])
  const { data } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE })
  assert.equal((await sendAndWait({ devnet, to: market.router, data, throwOnRevert: false })).status, 'success')
  await assertRouterEmpty(market)
})
