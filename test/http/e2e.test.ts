import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseSignature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { callApp, type Mode } from './callApp.ts'
import { sendSigned } from './sendSigned.ts'
import { type HttpTestStack, KEY_A, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'
import { signErc2612Permit } from '../fixtures/signErc2612Permit.ts'

// End to end on the embedded chain: /quote → /submit (or /execute) → sign and broadcast with a
// funded anvil account from var/devnet.json → the recipient receives exactly expectedAmountOut.

const erc20 = parseAbi([
  'function approve(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function mint(address, uint256)',
  'function deposit() payable',
  'function name() view returns (string)',
  'function nonces(address) view returns (uint256)',
])

let stack: HttpTestStack
let app: FastifyInstance
let tokens: Record<string, { address: Address; decimals: number }>
let router: Address
let feeRecipient: Address
let trader: ReturnType<typeof privateKeyToAccount>
let permitUser: ReturnType<typeof privateKeyToAccount>
let recipient: Address

beforeAll(async () => {
  stack = await startHttpTestStack()
  app = await stack.makeApp({})
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { devnet, deps } = stack.service
  const seeded = devnet!.market
  tokens = seeded.tokens
  router = deps.quoteService.router
  feeRecipient = deps.feeRecipient as Address
  trader = privateKeyToAccount(seeded.accounts[1].privateKey)
  permitUser = privateKeyToAccount(seeded.accounts[3].privateKey)
  recipient = seeded.accounts[2].address
  // The trader: WETH and USDC, the router approved for both. The permit user: USDC, no approval.
  await send(trader, {
    to: tokens.WETH.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'deposit' }),
    value: parseEther('100'),
  })
  await send(trader, {
    to: tokens.USDC.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'mint', args: [trader.address, 10n ** 12n] }),
  })
  await send(trader, {
    to: tokens.USDC.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'mint', args: [permitUser.address, 10n ** 12n] }),
  })
  for (const t of [tokens.WETH.address, tokens.USDC.address]) {
    await send(trader, { to: t, data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }) })
  }
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

/** Signs with `account`, broadcasts, waits for the receipt, then brings the market to that block. */
async function send(account: ReturnType<typeof privateKeyToAccount>, tx: { to: Address; data: Hex; value?: bigint }) {
  const { devnet, market } = stack.service
  const receipt = await sendSigned({ devnet: devnet!, account, tx })
  for (let i = 0; i < 100 && (market.freshness().blockNumber ?? 0n) < receipt.blockNumber; i++) await market.refresh()
  assert.ok((market.freshness().blockNumber ?? 0n) >= receipt.blockNumber, 'the market caught up with the swap block')
  return receipt
}

async function balance(token: Address | 'native', holder: Address): Promise<bigint> {
  const { publicClient } = stack.service
  return token === 'native'
    ? publicClient.getBalance({ address: holder })
    : publicClient.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [holder] })
}

/** Broadcasts the payload and checks the recipient got exactly expectedAmountOut (and the fee recipient the fee). */
async function executeAndCheck(
  from: ReturnType<typeof privateKeyToAccount>,
  payload: { to: Address; data: Hex; value: string },
  plan: any,
  outToken: Address | 'native',
  feeToken: Address,
) {
  assert.equal(payload.to, router)
  const [before, feeBefore] = await Promise.all([balance(outToken, recipient), balance(feeToken, feeRecipient)])
  const receipt = await send(from, { to: payload.to, data: payload.data, value: BigInt(payload.value) })
  assert.equal(receipt.status, 'success')
  const [afterBalance, feeAfter] = await Promise.all([balance(outToken, recipient), balance(feeToken, feeRecipient)])
  assert.equal(afterBalance - before, BigInt(plan.expectedAmountOut), 'recipient received exactly expectedAmountOut')
  assert.equal(feeAfter - feeBefore, BigInt(plan.feeBreakdown.integratorFeeAmount), 'fee recipient received exactly the integrator fee')
}

/** `/quote` of `body` on Base, over a socket, answered 200. */
async function quoteOk(body: Record<string, unknown>) {
  const res = await callApp(app, 'socket', { url: '/quote', key: KEY_A, body: { chainId: 8453, ...body } })
  assert.equal(res.status, 200, res.text)
  return res
}

/** `/execute` of `body` on Base for the recipient, over a socket, answered 200. */
async function execute(body: Record<string, unknown>) {
  const res = await callApp(app, 'socket', { url: '/execute', key: KEY_A, body: { chainId: 8453, ...body, user: recipient } })
  assert.equal(res.status, 200, res.text)
  return res
}

const modes: Mode[] = ['socket', 'inject']

test('/quote → /submit → broadcast: WETH → USDC with an integrator fee, exact output', async () => {
  for (const mode of modes) {
    const quote = await callApp(app, mode, {
      url: '/quote',
      key: KEY_A,
      body: {
        chainId: 8453,
        tokenIn: tokens.WETH.address,
        tokenOut: tokens.USDC.address,
        amountIn: parseEther('2').toString(),
        slippageBps: 30,
        feeBps: 25,
      },
    })
    assert.equal(quote.status, 200, quote.text)
    const submit = await callApp(app, mode, {
      url: '/submit',
      key: KEY_A,
      body: { quoteId: quote.json.quoteId, user: recipient, maxFeePerGasWei: '10000000000', maxPriorityFeePerGasWei: '0' },
    })
    assert.equal(submit.status, 200, submit.text)
    assert.equal(submit.json.value, '0')
    assert.ok(BigInt(quote.json.routePlan.feeBreakdown.integratorFeeAmount) > 0n)
    await executeAndCheck(trader, submit.json, quote.json.routePlan, tokens.USDC.address, tokens.USDC.address)
  }
})

test('/execute → broadcast: USDC → WETH, exact output; the execute quoteId can be submitted again', async () => {
  const res = await execute({ tokenIn: tokens.USDC.address, tokenOut: tokens.WETH.address, amountIn: '2500000000', slippageBps: 50 })
  await executeAndCheck(trader, res.json, res.json.routePlan, tokens.WETH.address, tokens.WETH.address)
  const again = await callApp(app, 'socket', { url: '/submit', key: KEY_A, body: { quoteId: res.json.quoteId, user: recipient } })
  assert.equal(again.status, 200)
})

test('each new kind alone through HTTP: /quote with allowedDexes → /submit → broadcast pays exactly expectedAmountOut, legs in their kind', async () => {
  const legKindOf = {
    AERODROME_V2LIKE: 'aerodrome_v2',
    AERODROME_CL: 'v3_direct',
    PANCAKE_V2: 'v2_direct',
    PANCAKE_INFINITY_CL: 'pancake_infinity_cl',
    DODO_V2: 'dodo_v2',
    GYROSCOPE_ECLP: 'balancer_vault',
    MAVERICK_V2: 'maverick_v2',
  } as const
  for (const [dex, legKind] of Object.entries(legKindOf)) {
    const body = {
      chainId: 8453,
      tokenIn: tokens.WETH.address,
      tokenOut: tokens.USDC.address,
      amountIn: parseEther('3').toString(),
      slippageBps: 30,
      allowedDexes: [dex],
      feeBps: 10,
    }
    const quote = await callApp(app, 'socket', { url: '/quote', key: KEY_A, body })
    assert.equal(quote.status, 200, `${dex}: ${quote.text}`)
    const legs = quote.json.routePlan.routes.flatMap((r: any) => r.legs)
    assert.ok(legs.length > 0 && legs.every((l: any) => l.dex === dex && l.data.kind === legKind), `${dex}: ${JSON.stringify(legs)}`)
    if (dex === 'PANCAKE_V2') assert.ok(legs.every((l: any) => l.data.feeBps === 25))
    const submit = await callApp(app, 'socket', {
      url: '/submit',
      key: KEY_A,
      body: { quoteId: quote.json.quoteId, user: recipient, maxFeePerGasWei: '10000000000', maxPriorityFeePerGasWei: '0' },
    })
    assert.equal(submit.status, 200, `${dex}: ${submit.text}`)
    await executeAndCheck(trader, submit.json, quote.json.routePlan, tokens.USDC.address, tokens.USDC.address)
  }
})

test('DODO_V2 the other way: /execute USDC → DAI on the DSP (sellQuote) pays exactly expectedAmountOut', async () => {
  const res = await execute({
    tokenIn: tokens.USDC.address,
    tokenOut: tokens.DAI.address,
    amountIn: (250_000n * 10n ** 6n).toString(),
    slippageBps: 30,
    allowedDexes: ['DODO_V2'],
  })
  const legs = res.json.routePlan.routes.flatMap((r: any) => r.legs)
  assert.ok(legs.length > 0 && legs.every((l: any) => l.dex === 'DODO_V2' && l.data.kind === 'dodo_v2'), JSON.stringify(legs))
  assert.ok(legs.some((l: any) => l.data.baseToken === tokens.DAI.address && l.tokenIn === tokens.USDC.address))
  await executeAndCheck(trader, res.json, res.json.routePlan, tokens.DAI.address, tokens.DAI.address)
})

test("DODO_V2 priced for the request's taker: a taker whose fee-rate model charges it more is quoted at its own rate and paid exactly expectedAmountOut; without taker, or with another, the anonymous rate", async () => {
  const { devnet } = stack.service
  const seeded = devnet!.market
  const taker = privateKeyToAccount(seeded.accounts[5].privateKey)
  const otherTaker = seeded.accounts[6].address
  const feeRateModel = seeded.factories.DODO_V2!.feeRateModel as Address
  // 0.5 % to the maintainer for this taker alone; every other trader (and the market's snapshot,
  // read for the zero address) keeps the model's default rate, 0.
  const takerRate = 5n * 10n ** 15n
  const modelAbi = parseAbi(['function setTraderRate(address trader, uint256 rate)'])
  await send(taker, {
    to: feeRateModel,
    data: encodeFunctionData({ abi: modelAbi, functionName: 'setTraderRate', args: [taker.address, takerRate] }),
  })
  await send(taker, { to: tokens.WETH.address, data: encodeFunctionData({ abi: erc20, functionName: 'deposit' }), value: parseEther('10') })
  await send(taker, {
    to: tokens.WETH.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }),
  })
  const trade = {
    tokenIn: tokens.WETH.address,
    tokenOut: tokens.USDC.address,
    amountIn: parseEther('3').toString(),
    slippageBps: 0,
    allowedDexes: ['DODO_V2'],
  }
  const [mine, anonymous, another] = [
    await quoteOk({ ...trade, taker: taker.address }),
    await quoteOk(trade),
    await quoteOk({ ...trade, taker: otherTaker }),
  ]
  const plan = mine.json.routePlan
  assert.equal(anonymous.json.routePlan.blockNumber, plan.blockNumber, 'the three quotes are of one block')
  const priced = plan.metadata.takerPricedLegs
  assert.ok(priced?.length > 0, JSON.stringify(plan.metadata))
  for (const leg of priced) {
    assert.deepEqual([leg.mtFeeRate, leg.marketMtFeeRate], [takerRate.toString(), '0'])
    assert.equal(plan.routes[leg.route].legs[leg.leg].poolId, leg.poolId)
  }
  assert.ok(BigInt(plan.expectedAmountOut) < BigInt(anonymous.json.routePlan.expectedAmountOut), 'the taker pays its higher rate')
  assert.equal(another.json.routePlan.expectedAmountOut, anonymous.json.routePlan.expectedAmountOut, 'another taker: the anonymous rate')
  assert.equal(anonymous.json.routePlan.metadata.takerPricedLegs, undefined)
  assert.equal(another.json.routePlan.metadata.takerPricedLegs, undefined)
  // The taker sends it: tx.origin is the taker, whose rate the pool charges; slippage 0, so any
  // shortfall would revert.
  const submit = await callApp(app, 'socket', { url: '/submit', key: KEY_A, body: { quoteId: mine.json.quoteId, user: taker.address } })
  assert.equal(submit.status, 200, submit.text)
  const before = await balance(tokens.USDC.address, taker.address)
  const receipt = await send(taker, { to: submit.json.to, data: submit.json.data, value: BigInt(submit.json.value) })
  assert.equal(receipt.status, 'success')
  assert.equal(
    (await balance(tokens.USDC.address, taker.address)) - before,
    BigInt(plan.expectedAmountOut),
    'the taker received exactly expectedAmountOut',
  )
})

test('MAVERICK_V2 both ways on the directional-fee pool: /execute USDC → USDbC and back pay exactly expectedAmountOut', async () => {
  await send(trader, {
    to: tokens.USDbC.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'mint', args: [trader.address, 10n ** 13n] }),
  })
  await send(trader, {
    to: tokens.USDbC.address,
    data: encodeFunctionData({ abi: erc20, functionName: 'approve', args: [router, maxUint256] }),
  })
  for (const [tokenIn, tokenOut] of [
    [tokens.USDC, tokens.USDbC],
    [tokens.USDbC, tokens.USDC],
  ]) {
    const res = await execute({
      tokenIn: tokenIn.address,
      tokenOut: tokenOut.address,
      amountIn: (1_500_000n * 10n ** 6n).toString(),
      slippageBps: 30,
      allowedDexes: ['MAVERICK_V2'],
    })
    const legs = res.json.routePlan.routes.flatMap((r: any) => r.legs)
    assert.ok(legs.length > 0 && legs.every((l: any) => l.dex === 'MAVERICK_V2' && l.data.kind === 'maverick_v2'), JSON.stringify(legs))
    await executeAndCheck(trader, res.json, res.json.routePlan, tokenOut.address, tokenOut.address)
  }
})

test('native in: ETH → USDC sends msg.value = amountIn and pays exactly expectedAmountOut', async () => {
  const amountIn = parseEther('1.5')
  const quote = await quoteOk({ tokenIn: NATIVE, tokenOut: tokens.USDC.address, amountIn: amountIn.toString(), slippageBps: 50 })
  assert.equal(quote.json.routePlan.nativeIn, true)
  assert.equal(quote.json.routePlan.tokenIn, NATIVE)
  const submit = await callApp(app, 'socket', { url: '/submit', key: KEY_A, body: { quoteId: quote.json.quoteId, user: recipient } })
  assert.equal(submit.json.value, amountIn.toString())
  await executeAndCheck(trader, submit.json, quote.json.routePlan, tokens.USDC.address, tokens.USDC.address)
})

test('native out: /execute USDC → ETH (zero-address sentinel) pays the recipient exactly expectedAmountOut in ETH', async () => {
  const res = await execute({
    tokenIn: tokens.USDC.address,
    tokenOut: '0x0000000000000000000000000000000000000000',
    amountIn: '3000000000',
    slippageBps: 50,
    feeBps: 10,
  })
  assert.equal(res.json.routePlan.nativeOut, true)
  assert.equal(res.json.value, '0')
  // The fee is paid in WETH (the router unwraps only the recipient's share).
  await executeAndCheck(trader, res.json, res.json.routePlan, 'native', tokens.WETH.address)
})

test('overrides (spec rule 6): an ETH-in quote paid in WETH, a WETH-out quote unwrapped to ETH', async () => {
  const ethIn = await quoteOk({ tokenIn: NATIVE, tokenOut: tokens.USDC.address, amountIn: parseEther('0.5').toString(), slippageBps: 50 })
  const paidInWeth = await callApp(app, 'socket', {
    url: '/submit',
    key: KEY_A,
    body: { quoteId: ethIn.json.quoteId, user: recipient, useNativeIn: false },
  })
  assert.equal(paidInWeth.json.value, '0')
  const wethBefore = await balance(tokens.WETH.address, trader.address)
  await executeAndCheck(trader, paidInWeth.json, ethIn.json.routePlan, tokens.USDC.address, tokens.USDC.address)
  assert.equal(wethBefore - (await balance(tokens.WETH.address, trader.address)), parseEther('0.5'), 'the trader paid WETH')

  const wethOut = await quoteOk({ tokenIn: tokens.USDC.address, tokenOut: tokens.WETH.address, amountIn: '1000000000', slippageBps: 50 })
  const unwrapped = await callApp(app, 'socket', {
    url: '/submit',
    key: KEY_A,
    body: { quoteId: wethOut.json.quoteId, user: recipient, unwrapNativeOut: true },
  })
  assert.equal(unwrapped.status, 200, unwrapped.text)
  await executeAndCheck(trader, unwrapped.json, wethOut.json.routePlan, 'native', tokens.WETH.address)
})

test('ETH → WETH and WETH → ETH: a plan of no routes that the router wraps or unwraps, gas-priced, executed exactly; flags that leave no native end are refused', async () => {
  const amountIn = parseEther('1.25')
  const wrap = await quoteOk({ tokenIn: NATIVE, tokenOut: tokens.WETH.address, amountIn: amountIn.toString(), slippageBps: 50 })
  const plan = wrap.json.routePlan
  assert.equal(plan.expectedAmountOut, amountIn.toString(), 'exact: amountOut == amountIn')
  assert.equal(plan.minAmountOut, amountIn.toString(), 'no price can move: no slippage taken')
  assert.deepEqual(plan.routes, [], 'no venue: the router wraps msg.value and pays it out')
  assert.equal(plan.nativeIn, true)
  assert.equal(plan.nativeOut, false)
  assert.ok(plan.gasEstimate.gasUnits > 21_000 && BigInt(plan.gasEstimate.gasCostWei) > 0n, 'gas-priced')
  const submit = await callApp(app, 'socket', { url: '/submit', key: KEY_A, body: { quoteId: wrap.json.quoteId, user: recipient } })
  assert.equal(submit.status, 200, submit.text)
  assert.equal(submit.json.value, amountIn.toString())
  const wethBefore = await balance(tokens.WETH.address, recipient)
  const receipt = await send(trader, { to: submit.json.to, data: submit.json.data, value: BigInt(submit.json.value) })
  assert.equal(receipt.status, 'success')
  assert.equal((await balance(tokens.WETH.address, recipient)) - wethBefore, amountIn, 'the recipient received exactly amountIn in WETH')
  const error = Math.abs(Number(receipt.gasUsed) - plan.gasEstimate.gasUnits) / Number(receipt.gasUsed)
  assert.ok(error < 0.15, `gas estimate ${plan.gasEstimate.gasUnits} for ${receipt.gasUsed} used`)

  // WETH → ETH with an integrator fee: the recipient gets amountIn less the fee in ETH, the fee in WETH.
  const unwrap = await execute({
    tokenIn: tokens.WETH.address,
    tokenOut: '0x0000000000000000000000000000000000000000',
    amountIn: parseEther('0.8').toString(),
    slippageBps: 50,
    feeBps: 10,
  })
  assert.equal(unwrap.json.routePlan.nativeOut, true)
  assert.deepEqual(unwrap.json.routePlan.routes, [])
  assert.equal(
    BigInt(unwrap.json.routePlan.expectedAmountOut) + BigInt(unwrap.json.routePlan.feeBreakdown.integratorFeeAmount),
    parseEther('0.8'),
  )
  await executeAndCheck(trader, unwrap.json, unwrap.json.routePlan, 'native', tokens.WETH.address)

  // The flags of /submit (spec rule 6) cannot turn a wrap into WETH → WETH: 400 naming the field.
  const neither = await callApp(app, 'socket', {
    url: '/submit',
    key: KEY_A,
    body: { quoteId: wrap.json.quoteId, user: recipient, useNativeIn: false },
  })
  assert.equal(neither.status, 400, neither.text)
  assert.match(neither.text, /useNativeIn/)
  // ETH → ETH is no trade at all.
  const same = await callApp(app, 'socket', {
    url: '/quote',
    key: KEY_A,
    body: { chainId: 8453, tokenIn: NATIVE, tokenOut: '0x0000000000000000000000000000000000000000', amountIn: '1000', slippageBps: 50 },
  })
  assert.notEqual(same.status, 200)
  assert.match(same.text, /must differ from tokenIn/)
})

test('permit: /submit with an EIP-2612 permit encodes swapExactInWithPermit; a user with no allowance swaps in one transaction', async () => {
  const { publicClient } = stack.service
  const usdc = tokens.USDC.address
  const amountIn = 1_000_000_000n
  assert.equal(
    await publicClient.readContract({
      address: usdc,
      abi: parseAbi(['function allowance(address, address) view returns (uint256)']),
      functionName: 'allowance',
      args: [permitUser.address, router],
    }),
    0n,
  )
  const [name, nonce] = await Promise.all([
    publicClient.readContract({ address: usdc, abi: erc20, functionName: 'name' }),
    publicClient.readContract({ address: usdc, abi: erc20, functionName: 'nonces', args: [permitUser.address] }),
  ])
  // An hour after the later of wall and chain time (the seeded chain's launchpad week runs ahead of the wall clock).
  const chainSec = (await publicClient.getBlock({ blockTag: 'latest' })).timestamp
  const wallSec = BigInt(Math.floor(Date.now() / 1000))
  const deadline = (chainSec > wallSec ? chainSec : wallSec) + 3600n
  const signature = await signErc2612Permit({
    owner: permitUser,
    token: usdc,
    tokenName: name,
    spender: router,
    value: amountIn,
    nonce,
    deadline,
  })
  const { r, s, v, yParity } = parseSignature(signature)
  const permit = { value: amountIn.toString(), deadline: Number(deadline), v: Number(v ?? BigInt(yParity + 27)), r, s }
  const quote = await callApp(app, 'socket', {
    url: '/quote',
    key: KEY_A,
    body: {
      chainId: 8453,
      tokenIn: usdc,
      tokenOut: tokens.WETH.address,
      amountIn: amountIn.toString(),
      slippageBps: 50,
      taker: permitUser.address,
    },
  })
  assert.equal(quote.status, 200, quote.text)
  const submit = await callApp(app, 'socket', {
    url: '/submit',
    key: KEY_A,
    body: { quoteId: quote.json.quoteId, user: recipient, permit },
  })
  assert.equal(submit.status, 200, submit.text)
  const withoutPermit = await callApp(app, 'socket', { url: '/submit', key: KEY_A, body: { quoteId: quote.json.quoteId, user: recipient } })
  assert.notEqual(submit.json.data.slice(0, 10), withoutPermit.json.data.slice(0, 10), 'a different function: swapExactInWithPermit')
  await executeAndCheck(permitUser, submit.json, quote.json.routePlan, tokens.WETH.address, tokens.WETH.address)

  // /execute takes the permit too (a fresh signature: the nonce moved).
  const nonce2 = await publicClient.readContract({ address: usdc, abi: erc20, functionName: 'nonces', args: [permitUser.address] })
  assert.equal(nonce2, nonce + 1n)
  const signature2 = await signErc2612Permit({
    owner: permitUser,
    token: usdc,
    tokenName: name,
    spender: router,
    value: amountIn,
    nonce: nonce2,
    deadline,
  })
  const sig2 = parseSignature(signature2)
  const executed = await execute({
    tokenIn: usdc,
    tokenOut: tokens.WETH.address,
    amountIn: amountIn.toString(),
    slippageBps: 50,
    permit: { ...permit, v: Number(sig2.v ?? BigInt(sig2.yParity + 27)), r: sig2.r, s: sig2.s },
  })
  await executeAndCheck(permitUser, executed.json, executed.json.routePlan, tokens.WETH.address, tokens.WETH.address)
})
