import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, getAddress, parseAbi, parseEventLogs, parseSignature } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { PermitPayload, RoutePlan } from '../../src/router/routePlanTypes.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createRouterMarket, encodePoolKey, givePayeesEveryToken, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, routeLeg, routePlan } from './planBuilders.ts'
import { quoteV2, quoteV3Style, quoteV4 } from './quotePool.ts'
import { routerRevert, sendRouterCall } from './routerCall.ts'
import { signErc2612Permit } from '../fixtures/signErc2612Permit.ts'

// Route shapes (multi-leg, multi-route), native in/out, the integrator fee and permits, end to end
// from a spec RoutePlan through the encoder to the router on real pools.

const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF'
const FEE_RECIPIENT: Address = '0x000000000000000000000000000000000000fee0'
// anvil's second dev account (unlocked, and we know its key to sign permits).
const PERMIT_USER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const ONE = 10n ** 18n
const devnet = useDevnet()
let market: RouterMarket
const gas: { label: string; gasUsed: bigint }[] = []

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  await givePayeesEveryToken({ devnet, market, payees: [RECIPIENT, FEE_RECIPIENT] })
})
afterAll(async () => {
  if (gas.length)
    console.log(`\nrouter gas by route shape (whole tx):\n${gas.map((g) => `  ${g.label.padEnd(56)} ${g.gasUsed}`).join('\n')}`)
})

async function swap(plan: RoutePlan, label: string, options: { tokenOut?: Address | 'native'; feeBps?: number } = {}) {
  const { data, value } = encodeSwapExactIn({
    plan,
    recipient: RECIPIENT,
    deadline: FAR_DEADLINE,
    feeBps: options.feeBps,
    feeRecipient: options.feeBps ? FEE_RECIPIENT : undefined,
  })
  const result = await sendRouterCall({ market, data, value, recipient: RECIPIENT, tokenOut: options.tokenOut ?? plan.tokenOut })
  gas.push({ label, gasUsed: result.receipt.gasUsed })
  return result
}

test('one route, two legs: the second leg takes the first leg actual output', async () => {
  const { a, b, c } = market.tokens
  const mid = await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: a, tokenOut: b, amountIn: ONE })
  const expected = await quoteV2({ market, pair: market.v2.bc, tokenIn: b, tokenOut: c, amountIn: mid, feeBps: 30n })
  const plan = routePlan(
    [
      {
        amountIn: ONE,
        legs: [
          routeLeg(a, b, { kind: 'v3_direct', pool: market.v3.ab3000 }, { minOut: mid }),
          routeLeg(b, c, { kind: 'v2_direct', pool: market.v2.bc, feeBps: 30 }, { minOut: expected }),
        ],
      },
    ],
    { minAmountOut: expected },
  )
  const { received } = await swap(plan, '1 route: v3_direct → v2_direct')
  assert.equal(received, expected)
})

test('one route, three legs across V4, Algebra and V3', async () => {
  const { a, b, c } = market.tokens
  const m1 = await quoteV4({ market, key: market.v4.ab, zeroForOne: a === market.v4.ab.currency0, amountIn: ONE / 10n })
  const m2 = await quoteV3Style({ market, pool: market.algebra.ab, tokenIn: b, tokenOut: a, amountIn: m1, algebra: true })
  const m3 = await quoteV3Style({ market, pool: market.v3.acNarrow, tokenIn: a, tokenOut: c, amountIn: m2 })
  const plan = routePlan([
    {
      amountIn: ONE / 10n,
      legs: [
        routeLeg(a, b, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.ab)] }),
        routeLeg(b, a, { kind: 'algebra_direct', pool: market.algebra.ab }),
        routeLeg(a, c, { kind: 'v3_direct', pool: market.v3.acNarrow }),
      ],
    },
  ])
  // The A/C pool only has liquidity within ±60 ticks: 0.1 A stays inside it.
  const { received } = await swap(plan, '1 route: univ4 → algebra_direct → v3_direct')
  assert.equal(received, m3)
})

test('four routes split over V2, V3, Algebra and V4 pay the sum of each pool output', async () => {
  const { a, b } = market.tokens
  const parts = [ONE, 2n * ONE, 3n * ONE, 4n * ONE]
  const expected =
    (await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: parts[0], feeBps: 30n })) +
    (await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: a, tokenOut: b, amountIn: parts[1] })) +
    (await quoteV3Style({ market, pool: market.algebra.ab, tokenIn: a, tokenOut: b, amountIn: parts[2], algebra: true })) +
    (await quoteV4({ market, key: market.v4.ab, zeroForOne: a === market.v4.ab.currency0, amountIn: parts[3] }))
  const plan = routePlan(
    [
      { amountIn: parts[0], legs: [routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 })] },
      { amountIn: parts[1], legs: [routeLeg(a, b, { kind: 'v3_direct', pool: market.v3.ab3000 })] },
      { amountIn: parts[2], legs: [routeLeg(a, b, { kind: 'algebra_direct', pool: market.algebra.ab })] },
      { amountIn: parts[3], legs: [routeLeg(a, b, { kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(market.v4.ab)] })] },
    ],
    { minAmountOut: expected },
  )
  const { received, receipt } = await swap(plan, '4 routes × 1 leg: v2 | v3 | algebra | univ4')
  assert.equal(received, expected)
  const [event] = parseEventLogs({ abi: swapRouterAbi, logs: receipt.logs, eventName: 'Swap' })
  assert.equal(event.args.amountIn, 10n * ONE)
  assert.equal(event.args.amountOut, expected)
  assert.equal(event.args.feeAmount, 0n)
})

test('two routes sharing a pool run in plan order (the second sees the first route trade)', async () => {
  const { a, b, c } = market.tokens
  const first = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 30n })
  const plan = routePlan([
    {
      amountIn: ONE,
      legs: [
        routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 }),
        routeLeg(b, c, { kind: 'v3_direct', pool: market.v3.bc500 }),
      ],
    },
    {
      amountIn: ONE,
      legs: [
        routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 }),
        routeLeg(b, c, { kind: 'v2_direct', pool: market.v2.bc, feeBps: 30 }),
      ],
    },
  ])
  const r1 = await quoteV3Style({ market, pool: market.v3.bc500, tokenIn: b, tokenOut: c, amountIn: first })
  // Route 2 prices the A/B pair after route 1 moved it: reserves (in + 1e18, out − first).
  const [r0, r1Reserve] = await devnet.publicClient.readContract({
    address: market.v2.ab,
    abi: parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']),
    functionName: 'getReserves',
  })
  const [rIn, rOut] = BigInt(a) < BigInt(b) ? [r0, r1Reserve] : [r1Reserve, r0]
  const withFee = ONE * 9970n
  const second = (withFee * (rOut - first)) / ((rIn + ONE) * 10_000n + withFee)
  const r2 = await quoteV2({ market, pair: market.v2.bc, tokenIn: b, tokenOut: c, amountIn: second, feeBps: 30n })
  const { received } = await swap(plan, '2 routes × 2 legs (shared first pool)')
  assert.ok(second < first)
  assert.equal(received, r1 + r2)
})

test('native in: msg.value is wrapped and swapped (ETH → A on the WETH/A pair)', async () => {
  const { a } = market.tokens
  const expected = await quoteV2({ market, pair: market.v2.wethA, tokenIn: market.weth, tokenOut: a, amountIn: ONE, feeBps: 30n })
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(market.weth, a, { kind: 'v2_direct', pool: market.v2.wethA, feeBps: 30 })] }], {
    nativeIn: true,
  })
  plan.tokenIn = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' // the API's native sentinel
  const { received } = await swap(plan, 'native in: ETH → v2_direct')
  assert.equal(received, expected)
})

test('native out: the recipient receives ETH (A → WETH unwrapped), the fee is paid in WETH', async () => {
  const { a } = market.tokens
  const total = await quoteV2({ market, pair: market.v2.wethA, tokenIn: a, tokenOut: market.weth, amountIn: 1000n * ONE, feeBps: 30n })
  const fee = (total * 25n) / 10_000n
  const plan = routePlan(
    [{ amountIn: 1000n * ONE, legs: [routeLeg(a, market.weth, { kind: 'v2_direct', pool: market.v2.wethA, feeBps: 30 })] }],
    { nativeOut: true, minAmountOut: total - fee },
  )
  const feeBefore = await devnet.publicClient.readContract({
    address: market.weth,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [FEE_RECIPIENT],
  })
  const { received } = await swap(plan, 'native out: v2_direct → ETH, 25 bps fee', { tokenOut: 'native', feeBps: 25 })
  assert.equal(received, total - fee)
  const feeAfter = await devnet.publicClient.readContract({
    address: market.weth,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [FEE_RECIPIENT],
  })
  assert.equal(feeAfter - feeBefore, fee)
})

test('integrator fee: floor(total·feeBps/1e4) to the fee recipient; minAmountOut is checked after it', async () => {
  const { a, b } = market.tokens
  const total = await quoteV3Style({ market, pool: market.v3.ab3000, tokenIn: a, tokenOut: b, amountIn: 7n * ONE + 3n })
  const feeBps = 37
  const fee = (total * BigInt(feeBps)) / 10_000n
  const legs = [routeLeg(a, b, { kind: 'v3_direct', pool: market.v3.ab3000 })]
  // One wei more than the net output: refused.
  const tooMuch = routePlan([{ amountIn: 7n * ONE + 3n, legs }], { minAmountOut: total - fee + 1n })
  const { data } = encodeSwapExactIn({ plan: tooMuch, recipient: RECIPIENT, deadline: FAR_DEADLINE, feeBps, feeRecipient: FEE_RECIPIENT })
  assert.equal(await routerRevert({ market, data }), `InsufficientOutput(${total - fee}, ${total - fee + 1n})`)
  const feeBefore = await devnet.publicClient.readContract({ address: b, abi: erc20Abi, functionName: 'balanceOf', args: [FEE_RECIPIENT] })
  const exact = routePlan([{ amountIn: 7n * ONE + 3n, legs }], { minAmountOut: total - fee })
  const { received, receipt } = await swap(exact, '1 route: v3_direct with 37 bps integrator fee', { feeBps })
  assert.equal(received, total - fee)
  const feeAfter = await devnet.publicClient.readContract({ address: b, abi: erc20Abi, functionName: 'balanceOf', args: [FEE_RECIPIENT] })
  assert.equal(feeAfter - feeBefore, fee)
  const [event] = parseEventLogs({ abi: swapRouterAbi, logs: receipt.logs, eventName: 'Swap' })
  assert.deepEqual([event.args.amountOut, event.args.feeAmount], [total - fee, fee])
})

test('permit: pulls with a fresh signature, survives a replayed (failing) permit while allowance remains, and refuses when none does', async () => {
  const { a, b } = market.tokens
  const user = PERMIT_USER.address
  await writeContractAndWait({ devnet, address: a, abi: erc20Abi, functionName: 'mint', args: [user, 10n * ONE] })
  const nonce = await devnet.publicClient.readContract({ address: a, abi: erc20Abi, functionName: 'nonces', args: [user] })
  const deadline = 2n ** 40n
  const signature = await signErc2612Permit({
    owner: PERMIT_USER,
    token: a,
    tokenName: 'Token A',
    spender: market.router,
    value: 2n * ONE,
    nonce,
    deadline,
  })
  const { r, s, v, yParity } = parseSignature(signature)
  const permit: PermitPayload = { value: (2n * ONE).toString(), deadline: Number(deadline), v: Number(v ?? BigInt(yParity + 27)), r, s }
  const plan = routePlan([{ amountIn: ONE, legs: [routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 })] }])
  const { data } = encodeSwapExactIn({ plan, recipient: RECIPIENT, deadline: FAR_DEADLINE, permit })
  const first = await sendRouterCall({ market, data, from: user, recipient: RECIPIENT, tokenOut: b })
  assert.ok(first.received > 0n)
  gas.push({ label: 'permit + 1 route: v2_direct', gasUsed: first.receipt.gasUsed })
  // The same permit again: its nonce is used, so permit() reverts; the allowance left (1e18) covers it.
  const second = await sendRouterCall({ market, data, from: user, recipient: RECIPIENT, tokenOut: b })
  assert.ok(second.received > 0n)
  // Now no allowance is left: the failed permit is reported.
  assert.equal(await routerRevert({ market, data, from: user }), `PermitFailed(${getAddress(a)}, 0, ${ONE})`)
})
