import assert from 'node:assert/strict'
import { beforeAll, beforeEach, test } from 'vitest'
import { type Address, getAddress, type Hex, zeroAddress } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { LegData, RoutePlan } from '../../src/router/routePlanTypes.ts'
import { createRouterMarket, encodePoolKey, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, routeLeg, routePlan } from './planBuilders.ts'
import { quoteV2 } from './quotePool.ts'
import { balanceOf, routerRevert } from './routerCall.ts'
import { holdingsOf, leaveStrayBalances, showHoldings, type Holdings } from './strayBalances.ts'

// Tokens left in the router (airdrops, mistaken transfers) are out of reach: an attacker's pool that
// over-reports what it paid, a pair whose reserves lie, a leg whose pool trades other tokens, a
// fee-on-transfer input, or the router named as a payee get the attacker nothing beyond what the
// call itself brought in, and the stray balances stay where they are.

const ONE = 10n ** 18n
const THIEF: Address = getAddress('0x00000000000000000000000000000000000dead1')
const DELIVERED = 1234n
const devnet = useDevnet()
let market: RouterMarket
let attacker: Address
let strays: Holdings
let snapshot: Hex

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  const { a, b, c } = market.tokens
  attacker = getAddress(((await devnet.publicClient.request({ method: 'eth_accounts' as never })) as Address[])[1])
  await writeContractAndWait({ devnet, address: a, abi: erc20Abi, functionName: 'mint', args: [attacker, 10n ** 24n] })
  await writeContractAndWait({
    devnet,
    address: a,
    abi: erc20Abi,
    functionName: 'approve',
    args: [market.router, 2n ** 256n - 1n],
    from: attacker,
  })
  strays = new Map<Address | 'native', bigint>([
    [getAddress(a), 5n * ONE],
    [getAddress(b), 7n * ONE],
    [getAddress(c), 11n * ONE],
    [getAddress(market.weth), 3n * ONE],
    ['native', 2n * ONE],
  ])
  await leaveStrayBalances({ market, amounts: strays })
  snapshot = await devnet.testClient.snapshot()
})
beforeEach(async () => {
  snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
})

async function assertStraysUntouched() {
  assert.deepEqual(showHoldings(await holdingsOf({ market, owner: market.router })), showHoldings(strays))
}

/** Sends the attacker's swap paying THIEF; returns what THIEF received of `paidIn`. */
async function attack(plan: RoutePlan, paidIn: Address | 'native' = plan.tokenOut): Promise<bigint> {
  const { data, value } = encodeSwapExactIn({ plan, recipient: THIEF, deadline: FAR_DEADLINE })
  const before = await balanceOf(market, paidIn, THIEF)
  const receipt = await sendAndWait({ devnet, to: market.router, data, value, from: attacker, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') throw new Error(`the attack reverted: ${await routerRevert({ market, data, value, from: attacker })}`)
  return (await balanceOf(market, paidIn, THIEF)) - before
}

const attackData = (plan: RoutePlan, recipient: Address = THIEF, extra: { feeBps?: number; feeRecipient?: Address } = {}) =>
  encodeSwapExactIn({ plan, recipient, deadline: FAR_DEADLINE, ...extra }).data

/** An attacker's pool for (tokenIn, tokenOut) holding `DELIVERED` of tokenOut, claiming `reported`. */
async function overReportingPool(tokenIn: Address, tokenOut: Address, reported: bigint): Promise<Address> {
  const pool = await deployContractAndWait({ devnet, artifact: devnet.artifacts.OverReportingPool, args: [tokenIn, tokenOut] })
  const abi = devnet.artifacts.OverReportingPool.abi
  await writeContractAndWait({
    devnet,
    address: tokenOut,
    abi: erc20Abi,
    functionName: tokenOut === market.weth ? 'transfer' : 'mint',
    args: [pool, DELIVERED],
  })
  await writeContractAndWait({ devnet, address: pool, abi, functionName: 'configure', args: [DELIVERED, reported] })
  // As a V2 pair: no reserve on the input side, so the V2 formula prices the whole output reserve.
  const [reserve0, reserve1] = BigInt(tokenIn) < BigInt(tokenOut) ? [0n, reported] : [reported, 0n]
  await writeContractAndWait({ devnet, address: pool, abi, functionName: 'setReserves', args: [reserve0, reserve1] })
  return getAddress(pool)
}

const V3_STYLE_KINDS = ['v3_direct', 'pancake_v3_direct', 'algebra_direct', 'hydrex'] as const
const v3StyleLeg = (kind: (typeof V3_STYLE_KINDS)[number], pool: Address): LegData => (kind === 'hydrex' ? { kind } : { kind, pool })

test('a V3-style pool reporting more output than it paid gets the attacker only what it paid (every V3-style leg kind); the stray balances stay', async () => {
  const { a, b } = market.tokens
  for (const kind of V3_STYLE_KINDS) {
    // Claims the router's whole stray B on top of what it really sends.
    const pool = await overReportingPool(a, b, strays.get(getAddress(b))! + DELIVERED)
    const plan = routePlan([{ amountIn: 1000n, legs: [routeLeg(a, b, v3StyleLeg(kind, pool), { poolId: pool })] }])
    assert.equal(await attack(plan), DELIVERED, kind)
    await assertStraysUntouched()
  }
})

test("an over-reporting pool's claim does not fund the next leg: a real pool downstream swaps only what arrived", async () => {
  const { a, b, c } = market.tokens
  const pool = await overReportingPool(a, b, strays.get(getAddress(b))! + DELIVERED)
  const expected = await quoteV2({ market, pair: market.v2.bc, tokenIn: b, tokenOut: c, amountIn: DELIVERED, feeBps: 30n })
  const plan = routePlan([
    {
      amountIn: 1000n,
      legs: [routeLeg(a, b, { kind: 'v3_direct', pool }), routeLeg(b, c, { kind: 'v2_direct', pool: market.v2.bc, feeBps: 30 })],
    },
  ])
  assert.equal(await attack(plan), expected)
  await assertStraysUntouched()
})

test('a V2 pair whose reserves lie gets the attacker only what it paid, in tokens and unwrapped to ETH; the stray balances stay', async () => {
  const { a, c } = market.tokens
  const pair = await overReportingPool(a, c, strays.get(getAddress(c))! + DELIVERED)
  assert.equal(
    await attack(routePlan([{ amountIn: 1000n, legs: [routeLeg(a, c, { kind: 'v2_direct', pool: pair, feeBps: 30 })] }])),
    DELIVERED,
  )
  await assertStraysUntouched()
  const wethPair = await overReportingPool(a, market.weth, strays.get(getAddress(market.weth))! + DELIVERED)
  const nativeOut = routePlan([{ amountIn: 1000n, legs: [routeLeg(a, market.weth, { kind: 'v2_direct', pool: wethPair, feeBps: 30 })] }], {
    nativeOut: true,
  })
  assert.equal(await attack(nativeOut, 'native'), DELIVERED)
  await assertStraysUntouched()
})

test('a leg whose pool trades other tokens is refused (V3, V2, V4) instead of paying its output from the stray balances', async () => {
  const { a, b, c } = market.tokens
  // The A/C pool pays C for A; the leg says B comes out.
  const v3 = routePlan([{ amountIn: 10n ** 15n, legs: [routeLeg(a, b, { kind: 'v3_direct', pool: market.v3.acNarrow })] }])
  assert.equal(await routerRevert({ market, data: attackData(v3), from: attacker }), `NothingDelivered(${getAddress(b)})`)

  // A V2 pair of (p0, p1) and an output token t outside it, oriented so the pair's K check passes:
  // the pair pays its other token, never t.
  const pairs = [
    [market.v2.ab, a, b],
    [market.v2.bc, b, c],
    [market.v2.wethA, market.weth, a],
  ] as const
  const outside = [a, b, c, market.weth]
  const mismatched = pairs.flatMap(([pair, x, y]) => {
    const [p0] = BigInt(x) < BigInt(y) ? [x, y] : [y, x]
    return [x, y].flatMap((tokenIn) =>
      outside.filter((t) => t !== x && t !== y && BigInt(tokenIn) < BigInt(t) === (tokenIn === p0)).map((t) => ({ pair, tokenIn, t })),
    )
  })
  assert.ok(mismatched.length > 0)
  for (const { pair, tokenIn, t } of mismatched) {
    if (tokenIn !== a) {
      await writeContractAndWait({
        devnet,
        address: tokenIn,
        abi: erc20Abi,
        functionName: tokenIn === market.weth ? 'transfer' : 'mint',
        args: [attacker, 10n ** 18n],
      })
      await writeContractAndWait({
        devnet,
        address: tokenIn,
        abi: erc20Abi,
        functionName: 'approve',
        args: [market.router, 2n ** 256n - 1n],
        from: attacker,
      })
    }
    const v2 = routePlan([{ amountIn: 10n ** 15n, legs: [routeLeg(tokenIn, t, { kind: 'v2_direct', pool: pair, feeBps: 30 })] }])
    assert.equal(await routerRevert({ market, data: attackData(v2), from: attacker }), `NothingDelivered(${getAddress(t)})`)
  }

  const v4 = routePlan([
    { amountIn: 10n ** 15n, legs: [routeLeg(a, c, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.ab)] })] },
  ])
  assert.equal(await routerRevert({ market, data: attackData(v4), from: attacker }), 'InvalidLegData(5)')
})

test('a fee-on-transfer input that delivers less than amountIn is refused before any leg spends the stray balance of that token', async () => {
  const { a } = market.tokens
  const quirky = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.QuirkyToken }))
  const abi = devnet.artifacts.QuirkyToken.abi
  await writeContractAndWait({ devnet, address: quirky, abi, functionName: 'mint', args: [attacker, 10n ** 24n] })
  await writeContractAndWait({ devnet, address: quirky, abi, functionName: 'mint', args: [market.router, 5n * ONE] })
  await writeContractAndWait({
    devnet,
    address: quirky,
    abi,
    functionName: 'approve',
    args: [market.router, 2n ** 256n - 1n],
    from: attacker,
  })
  await writeContractAndWait({ devnet, address: quirky, abi, functionName: 'setQuirk', args: [3, zeroAddress] })
  // The attacker's pool takes the full amountIn through the callback and pays back honestly.
  const pool = await overReportingPool(quirky, a, DELIVERED)
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(quirky, a, { kind: 'v3_direct', pool })] }])
  assert.equal(
    await routerRevert({ market, data: attackData(plan), from: attacker }),
    `InputNotReceived(${quirky}, ${ONE - ONE / 100n}, ${ONE})`,
  )
  assert.equal(await balanceOf(market, quirky, market.router), 5n * ONE)
})

test('the router itself is refused as recipient and as fee recipient', async () => {
  const { a, b } = market.tokens
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 })] }])
  assert.equal(await routerRevert({ market, data: attackData(plan, market.router), from: attacker }), 'InvalidRecipient()')
  assert.equal(
    await routerRevert({ market, data: attackData(plan, THIEF, { feeBps: 10, feeRecipient: market.router }), from: attacker }),
    'InvalidFeeRecipient()',
  )
  await assertStraysUntouched()
})
