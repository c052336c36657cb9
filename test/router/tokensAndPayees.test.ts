import assert from 'node:assert/strict'
import { beforeAll, beforeEach, test } from 'vitest'
import { type Address, decodeErrorResult, encodeFunctionData, getAddress, type Hex, parseEventLogs } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { RoutePlan } from '../../src/router/routePlanTypes.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createRouterMarket, encodePoolKey, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { deployTokenWithPoolAgainstA } from './deployTokenWithPoolAgainstA.ts'
import { FAR_DEADLINE, routeLeg, routePlan } from './planBuilders.ts'
import { quoteV2, quoteV3Style } from './quotePool.ts'
import { balanceOf, routerRevert, sendRouterCall } from './routerCall.ts'

// Counterparties that misbehave the way real ones do: tokens that return no bool, return false or
// have no code; a native-output recipient that rejects ETH or re-enters the router; and the
// integrator fee at its cap.

const RECIPIENT: Address = '0x000000000000000000000000000000000000bEEF'
const FEE_RECIPIENT: Address = getAddress('0x000000000000000000000000000000000000fee5')
const NO_CODE: Address = getAddress('0x00000000000000000000000000000000deadbeef')
const ONE = 10n ** 18n
const devnet = useDevnet()
let market: RouterMarket
/** A QuirkyToken with a full-range Uniswap V3 pool against A (fee 3000), funded while it behaved. */
let quirky: Address
let quirkyPool: Address
let snapshot: Hex

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  ;({ token: quirky, pool: quirkyPool } = await deployTokenWithPoolAgainstA({ devnet, market, artifact: devnet.artifacts.QuirkyToken }))
  snapshot = await devnet.testClient.snapshot()
})
beforeEach(async () => {
  snapshot = await revertToSnapshot({ testClient: devnet.testClient, id: snapshot })
})

const setQuirk = (quirk: number, account: Address = NO_CODE) =>
  writeContractAndWait({ devnet, address: quirky, abi: devnet.artifacts.QuirkyToken.abi, functionName: 'setQuirk', args: [quirk, account] })
const callData = (plan: RoutePlan, recipient: Address = RECIPIENT, extra: { feeBps?: number } = {}) =>
  encodeSwapExactIn({ plan, recipient, deadline: FAR_DEADLINE, feeRecipient: FEE_RECIPIENT, ...extra })
const quirkyLeg = (tokenIn: Address, tokenOut: Address) =>
  routePlan([{ amountIn: ONE, legs: [routeLeg(tokenIn, tokenOut, { kind: 'v3_direct', pool: quirkyPool })] }])

test('a token whose transfers return no value (USDT style) is pulled, swapped and paid out', async () => {
  const { a } = market.tokens
  for (const [tokenIn, tokenOut] of [
    [quirky, a],
    [a, quirky],
  ] as const) {
    // The pool's own answer, asked while the token still returns a bool (our harness wants one).
    await setQuirk(0)
    const expected = await quoteV3Style({ market, pool: quirkyPool, tokenIn, tokenOut, amountIn: ONE })
    await setQuirk(1)
    const { received } = await sendRouterCall({ market, data: callData(quirkyLeg(tokenIn, tokenOut)).data, recipient: RECIPIENT, tokenOut })
    assert.equal(received, expected)
    assert.equal(await balanceOf(market, quirky, market.router), 0n)
  }
})

test('a token transfer that returns false reverts TransferFailed: pulling it, paying a pool with it, paying it out', async () => {
  const { a } = market.tokens
  await setQuirk(2, devnet.account)
  assert.equal(await routerRevert({ market, data: callData(quirkyLeg(quirky, a)).data }), `TransferFailed(${quirky})`)
  // Out of the router: the swap callback paying the pool, and the payout to the recipient.
  await setQuirk(2, market.router)
  assert.equal(await routerRevert({ market, data: callData(quirkyLeg(quirky, a)).data }), `TransferFailed(${quirky})`)
  assert.equal(await routerRevert({ market, data: callData(quirkyLeg(a, quirky)).data }), `TransferFailed(${quirky})`)
})

test('a token without code is refused by name, as input and as a leg output', async () => {
  const { a } = market.tokens
  const pool = await deployContractAndWait({ devnet, artifact: devnet.artifacts.OverReportingPool, args: [a, NO_CODE] })
  const asInput = routePlan([{ amountIn: ONE, legs: [routeLeg(NO_CODE, a, { kind: 'v3_direct', pool })] }])
  assert.equal(await routerRevert({ market, data: callData(asInput).data }), `BalanceReadFailed(${getAddress(NO_CODE)})`)
  const asOutput = routePlan([{ amountIn: ONE, legs: [routeLeg(a, NO_CODE, { kind: 'v3_direct', pool })] }])
  assert.equal(await routerRevert({ market, data: callData(asOutput).data }), `BalanceReadFailed(${getAddress(NO_CODE)})`)
})

/** A → WETH on the V2 pair, unwrapped for `recipient`. */
const nativeOutPlan = () =>
  routePlan([{ amountIn: ONE, legs: [routeLeg(market.tokens.a, market.weth, { kind: 'v2_direct', pool: market.v2.wethA, feeBps: 30 })] }], {
    nativeOut: true,
  })
/** What `nativeOutPlan` pays: its V2 pair's own quote for ONE token A into WETH. */
const nativeOutQuote = () =>
  quoteV2({ market, pair: market.v2.wethA, tokenIn: market.tokens.a, tokenOut: market.weth, amountIn: ONE, feeBps: 30n })

test('a native-output recipient that rejects ETH, or re-enters and fails, reverts NativeTransferFailed', async () => {
  const recipient = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.NativeRecipient }))
  const arm = (mode: number, payload: Hex = '0x') =>
    writeContractAndWait({
      devnet,
      address: recipient,
      abi: devnet.artifacts.NativeRecipient.abi,
      functionName: 'arm',
      args: [mode, market.router, payload],
    })
  const { data } = callData(nativeOutPlan(), recipient)
  const amount = await nativeOutQuote()
  await arm(1)
  assert.equal(await routerRevert({ market, data }), `NativeTransferFailed(${recipient}, ${amount})`)
  await arm(2, data)
  assert.equal(await routerRevert({ market, data }), `NativeTransferFailed(${recipient}, ${amount})`)
})

test('a native-output recipient re-entering the router (a swap, a swap callback, the V4 unlock callback, the Infinity lock callback) is refused, and the swap it swallowed pays it exactly', async () => {
  const recipient = getAddress(await deployContractAndWait({ devnet, artifact: devnet.artifacts.NativeRecipient }))
  const recipientAbi = devnet.artifacts.NativeRecipient.abi
  const { data } = callData(nativeOutPlan(), recipient)
  const reentries = [
    [data, 'Reentrancy()'],
    [
      encodeFunctionData({ abi: swapRouterAbi, functionName: 'uniswapV3SwapCallback', args: [ONE, ONE, '0x'] }),
      `UnexpectedCallback(${recipient})`,
    ],
    [
      encodeFunctionData({ abi: swapRouterAbi, functionName: 'unlockCallback', args: [encodePoolKey(market.v4.ab)] }),
      `UnexpectedCallback(${recipient})`,
    ],
    [encodeFunctionData({ abi: swapRouterAbi, functionName: 'lockAcquired', args: ['0x'] }), `UnexpectedCallback(${recipient})`],
  ] as const
  for (const [payload, refusal] of reentries) {
    await writeContractAndWait({ devnet, address: recipient, abi: recipientAbi, functionName: 'arm', args: [3, market.router, payload] })
    const amount = await nativeOutQuote()
    const { received } = await sendRouterCall({ market, data, recipient, tokenOut: 'native' })
    assert.equal(received, amount)
    const lastRevert = (await devnet.publicClient.readContract({
      address: recipient,
      abi: recipientAbi,
      functionName: 'lastRevert',
    })) as Hex
    const decoded = decodeErrorResult({ abi: swapRouterAbi, data: lastRevert })
    assert.equal(`${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`, refusal)
  }
})

test('feeBps at the cap (10000) pays the whole output to the fee recipient and nothing to the recipient; 9999 leaves the recipient the floor remainder', async () => {
  const { a, b } = market.tokens
  const total = await quoteV2({ market, pair: market.v2.ab, tokenIn: a, tokenOut: b, amountIn: ONE, feeBps: 30n })
  const plan = (minAmountOut: bigint) =>
    routePlan([{ amountIn: ONE, legs: [routeLeg(a, b, { kind: 'v2_direct', pool: market.v2.ab, feeBps: 30 })] }], { minAmountOut })
  let untraded = await devnet.testClient.snapshot()
  for (const feeBps of [10_000, 9_999]) {
    const fee = (total * BigInt(feeBps)) / 10_000n
    assert.equal(
      await routerRevert({ market, data: callData(plan(total - fee + 1n), RECIPIENT, { feeBps }).data }),
      `InsufficientOutput(${total - fee}, ${total - fee + 1n})`,
    )
    const feeBefore = await balanceOf(market, b, FEE_RECIPIENT)
    const { received, receipt } = await sendRouterCall({
      market,
      data: callData(plan(total - fee), RECIPIENT, { feeBps }).data,
      recipient: RECIPIENT,
      tokenOut: b,
    })
    assert.equal(received, total - fee, `feeBps ${feeBps}`)
    assert.equal((await balanceOf(market, b, FEE_RECIPIENT)) - feeBefore, fee, `feeBps ${feeBps}`)
    const [event] = parseEventLogs({ abi: swapRouterAbi, logs: receipt.logs, eventName: 'Swap' })
    assert.deepEqual([event.args.amountOut, event.args.feeAmount], [total - fee, fee])
    untraded = await revertToSnapshot({ testClient: devnet.testClient, id: untraded })
  }
  // At the cap with native output: the recipient is sent 0 ETH, the fee recipient all the WETH.
  const wethTotal = await quoteV2({ market, pair: market.v2.wethA, tokenIn: a, tokenOut: market.weth, amountIn: ONE, feeBps: 30n })
  const wethBefore = await balanceOf(market, market.weth, FEE_RECIPIENT)
  const { received } = await sendRouterCall({
    market,
    data: callData(nativeOutPlan(), RECIPIENT, { feeBps: 10_000 }).data,
    recipient: RECIPIENT,
    tokenOut: 'native',
  })
  assert.equal(received, 0n)
  assert.equal((await balanceOf(market, market.weth, FEE_RECIPIENT)) - wethBefore, wethTotal)
})
