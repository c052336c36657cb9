import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { type Address, createWalletClient, decodeFunctionData, type Hex, http, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'

// The integrator fee is capped and goes to the caller key's own recipient (issue 12, item 7):
// MAX_FEE_BPS for plain keys, a key's maxFeeBps and feeRecipient when its line sets them; the
// quote records its key's recipient, and /submit and /execute encode that one. One trade is
// broadcast: the key's recipient receives exactly integratorFeeAmount, the default one nothing.

const PARTNER = 'partner-key-0123456789abcdef'
const GENEROUS = 'generous-key-0123456789abcdef'
const NO_FEE = 'no-fee-key-0123456789abcdef'
const PARTNER_RECIPIENT: Address = '0x000000000000000000000000000000000000F00D'
const sha256 = (key: string) => createHash('sha256').update(key).digest('hex')
const USER: Address = '0x000000000000000000000000000000000000bEEF'

let stack: HttpTestStack
let app: FastifyInstance
let usdc: Address
let weth: Address
let defaultRecipient: Address

beforeAll(async () => {
  stack = await startHttpTestStack()
  app = await stack.makeApp({
    maxFeeBps: 300,
    keys: [
      KEY_A,
      { sha256: sha256(PARTNER), feeRecipient: PARTNER_RECIPIENT, maxFeeBps: 50 },
      { sha256: sha256(GENEROUS), maxFeeBps: 1_000 },
      { sha256: sha256(NO_FEE), maxFeeBps: 0 },
    ],
  })
  const tokens = stack.service.devnet!.market.tokens
  usdc = tokens.USDC.address
  weth = tokens.WETH.address
  defaultRecipient = stack.service.deps.feeRecipient as Address
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

const quoteBody = (feeBps: number) => ({
  chainId: 8453,
  tokenIn: weth,
  tokenOut: usdc,
  amountIn: parseEther('1').toString(),
  slippageBps: 50,
  feeBps,
})
const feeRecipientOf = (data: Hex) => (decodeFunctionData({ abi: swapRouterAbi, data }).args[0] as { feeRecipient: Address }).feeRecipient

test("MAX_FEE_BPS caps plain keys; a key's maxFeeBps caps it instead (higher or lower); above the cap is a 400 naming feeBps and the cap", async () => {
  const quote = (key: string, feeBps: number) => callApp(app, 'inject', { url: '/quote', key, body: quoteBody(feeBps) })
  const refused = async (key: string, feeBps: number, message: string) => {
    for (const url of ['/quote', '/execute']) {
      const res = await callApp(app, 'inject', {
        url,
        key,
        body: url === '/quote' ? quoteBody(feeBps) : { ...quoteBody(feeBps), user: USER },
      })
      assert.equal(res.status, 400, res.text)
      assert.equal(res.json.error, message)
    }
  }
  assert.equal((await quote(KEY_A, 300)).status, 200)
  await refused(KEY_A, 301, 'feeBps: 301 is above the maximum of 300 bps for this API key (MAX_FEE_BPS)')
  // Above every key's cap the served document's bound (the highest cap, 1000 here) refuses it first.
  await refused(KEY_A, 10_000, 'feeBps: must be <= 1000')
  assert.equal((await quote(PARTNER, 50)).status, 200)
  await refused(PARTNER, 51, "feeBps: 51 is above the maximum of 50 bps for this API key (this key's maxFeeBps)")
  assert.equal((await quote(GENEROUS, 1_000)).status, 200)
  await refused(GENEROUS, 1_001, 'feeBps: must be <= 1000') // the highest cap is the document's bound
  assert.equal((await quote(NO_FEE, 0)).status, 200)
  await refused(NO_FEE, 1, "feeBps: 1 is above the maximum of 0 bps for this API key (this key's maxFeeBps)")
})

test("a quote is submitted with its key's fee recipient: the key's own, else the service's", async () => {
  for (const [key, expected] of [
    [PARTNER, PARTNER_RECIPIENT],
    [KEY_A, defaultRecipient],
    [GENEROUS, defaultRecipient],
  ] as const) {
    const quote = await callApp(app, 'inject', { url: '/quote', key, body: quoteBody(25) })
    assert.equal(quote.status, 200, quote.text)
    const submit = await callApp(app, 'inject', { url: '/submit', key, body: { quoteId: quote.json.quoteId, user: USER } })
    assert.equal(submit.status, 200, submit.text)
    assert.equal(feeRecipientOf(submit.json.data), expected, key)
  }
})

test('/execute with a key that names its recipient: on chain, that recipient receives exactly the fee and the default one nothing', async () => {
  const { devnet, publicClient } = stack.service
  const trader = privateKeyToAccount(devnet!.market.accounts[1].privateKey)
  const res = await callApp(app, 'inject', {
    url: '/execute',
    key: PARTNER,
    body: { chainId: 8453, tokenIn: NATIVE, tokenOut: usdc, amountIn: parseEther('1').toString(), slippageBps: 50, feeBps: 50, user: USER },
  })
  assert.equal(res.status, 200, res.text)
  assert.equal(feeRecipientOf(res.json.data), PARTNER_RECIPIENT)
  const fee = BigInt(res.json.routePlan.feeBreakdown.integratorFeeAmount)
  assert.ok(fee > 0n)
  // The execute quote is cached with the same recipient: submitting it again encodes it again.
  const again = await callApp(app, 'inject', { url: '/submit', key: PARTNER, body: { quoteId: res.json.quoteId, user: USER } })
  assert.equal(feeRecipientOf(again.json.data), PARTNER_RECIPIENT)

  const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])
  const balances = () =>
    Promise.all(
      [PARTNER_RECIPIENT, defaultRecipient, USER].map((holder) =>
        publicClient.readContract({ address: usdc, abi: erc20, functionName: 'balanceOf', args: [holder] }),
      ),
    )
  const before = await balances()
  const wallet = createWalletClient({ account: trader, chain: devnet!.chain, transport: http(devnet!.market.rpcUrl, { retryCount: 0 }) })
  const hash = await wallet.sendTransaction({
    to: res.json.to,
    data: res.json.data,
    value: BigInt(res.json.value),
    gas: 8_000_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 0n,
  })
  assert.equal((await waitForReceipt({ publicClient: devnet!.publicClient, hash })).status, 'success')
  const afterTrade = await balances()
  assert.equal(afterTrade[0] - before[0], fee, "the key's recipient received exactly the fee")
  assert.equal(afterTrade[1] - before[1], 0n, 'the service default recipient received nothing')
  assert.equal(afterTrade[2] - before[2], BigInt(res.json.routePlan.expectedAmountOut), 'the user received exactly expectedAmountOut')
})
