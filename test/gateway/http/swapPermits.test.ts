import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, decodeFunctionData, type Hex, parseAbi, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { swapRouterAbi } from '../../../src/router/swapRouterAbi.ts'
import type { SwapService } from '../../../src/startSwapService.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import type { GatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'
import { encodeApprove, freshWallet, type SwapTestbed, startSwapTestbed } from './swapTestbed.ts'

// EIP-2612 permits on swap prepare, through HTTP on the embedded chain: a wallet that holds a
// launched token sells it without an approval transaction (the quote offers the permit's typed
// data, the wallet signs it, prepare takes the signature, the plan calls the router's
// swapExactInWithPermit, signed and broadcast), and every way a permit is wrong answers
// invalid_permit before anything is prepared: another signer, expired, another spender, less
// than the swap pulls, a value other than the one signed, another nonce, already used.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const token20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function nonces(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function permit(address, address, uint256, uint256, uint8, bytes32, bytes32)',
])

let swap: SwapTestbed | undefined
let service: SwapService
let bed: GatewayTestbed
let key: string
let client: PublicClient
let chainId: number
let weth: Address
let token: Address
let router: Address
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)

beforeAll(async () => {
  swap = await startSwapTestbed({ apiKey: 'permit-test-key-0123456789abcdef' })
  ;({ service, bed } = swap)
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['swap:write', 'transactions:read'] })).key
  client = service.publicClient
  chainId = bed.chain.chainId
  weth = bed.chain.wrappedNative
  token = bed.devnet.market.launchpad!.tokens[0].address
  router = service.deps.quoteService.router
}, 900_000)
afterAll(async () => {
  await swap?.stop()
})

async function ok(res: Response): Promise<Json> {
  const body: Json = await res.json()
  assert.equal(res.status, 200, JSON.stringify(body))
  return body
}

/** A fresh wallet holding some of the launched token (bought with WETH through the gateway). */
async function holder() {
  const wallet = await freshWallet(bed)
  await signAndSend({
    client,
    privateKey: wallet.privateKey,
    tx: { chain_id: chainId, from: wallet.address, to: weth, data: encodeApprove(router), value: '0', gas: '100000' },
  })
  const buy = { chain_id: chainId, wallet: wallet.address, token_in: weth, token_out: token, amount_in: '10000000000000000' }
  const quote = await ok(await bed.post('/swaps/quote', buy, { key }))
  const plan = await ok(await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: wallet.address }, { key }))
  assert.equal((await signAndSend({ client, privateKey: wallet.privateKey, tx: plan.data.tx })).status, 'success')
  const balance = await client.readContract({ address: token, abi: token20, functionName: 'balanceOf', args: [wallet.address] })
  return { ...wallet, balance }
}

/** A quote selling `amount` of the token for WETH, with the permit it offers. */
async function sellQuote(wallet: Address, amount: bigint): Promise<Json> {
  const body = { chain_id: chainId, wallet, token_in: token, token_out: weth, amount_in: amount.toString(), max_price_impact_bps: 10_000 }
  return (await ok(await bed.post('/swaps/quote', body, { key }))).data
}

/** Signs typed data as a wallet would, from the quote's JSON form. */
function sign(privateKey: Hex, typedData: Json, change: { message?: Record<string, unknown>; domain?: Record<string, unknown> } = {}) {
  const { EIP712Domain: _, ...types } = typedData.types
  return privateKeyToAccount(privateKey).signTypedData({
    domain: { ...typedData.domain, ...change.domain },
    types,
    primaryType: 'Permit',
    message: Object.fromEntries(
      Object.entries({ ...typedData.message, ...change.message }).map(([k, v]) => [k, /^[0-9]+$/.test(String(v)) ? BigInt(String(v)) : v]),
    ) as never,
  })
}

const prepare = (quote: Json, wallet: Address, permit: Record<string, unknown>) =>
  bed.post('/swaps/prepare', { quote_id: quote.quote_id, wallet, permit }, { key })

describe('swap prepare with an EIP-2612 permit', () => {
  test('the quote offers the permit; signed, it replaces the approval: swapExactInWithPermit, broadcast, sold; the same permit again is invalid_permit', async () => {
    const wallet = await holder()
    const amount = wallet.balance / 2n
    const quote = await sellQuote(wallet.address, amount)
    const offered = quote.permit.typed_data
    assert.deepEqual(offered.domain, { name: offered.domain.name, version: '1', chainId, verifyingContract: token })
    assert.deepEqual(offered.message, {
      owner: wallet.address,
      spender: router,
      value: amount.toString(),
      nonce: '0',
      deadline: offered.message.deadline,
    })
    assert.equal(offered.primaryType, 'Permit')
    // Without the permit, the router is not approved for the token.
    await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.quote_id, wallet: wallet.address }, { key }),
      409,
      'approval_not_confirmed',
    )
    const signature = await sign(wallet.privateKey, offered)
    const permit = { value: offered.message.value, deadline: Number(offered.message.deadline), signature }
    const plan = await ok(await prepare(quote, wallet.address, permit))
    assert.deepEqual(plan.data.requires, [])
    assert.deepEqual(plan.data.summary.permit, { value: amount.toString(), deadline: permit.deadline, nonce: '0' })
    const call = decodeFunctionData({ abi: swapRouterAbi, data: plan.data.tx.data })
    assert.equal(call.functionName, 'swapExactInWithPermit')
    const params = call.args[0] as { deadline: bigint }
    assert.ok(params.deadline <= BigInt(permit.deadline), "the plan's deadline is within the permit's")

    const wethBefore = await client.readContract({ address: weth, abi: token20, functionName: 'balanceOf', args: [wallet.address] })
    assert.equal((await signAndSend({ client, privateKey: wallet.privateKey, tx: plan.data.tx })).status, 'success')
    const wethAfter = await client.readContract({ address: weth, abi: token20, functionName: 'balanceOf', args: [wallet.address] })
    assert.ok(wethAfter - wethBefore >= BigInt(quote.min_amount_out))
    assert.equal(await client.readContract({ address: token, abi: token20, functionName: 'nonces', args: [wallet.address] }), 1n)

    // The permit is spent: the same signature on a new quote of the same amount.
    const again = await sellQuote(wallet.address, amount)
    assert.equal(again.permit.typed_data.message.nonce, '1')
    const used = await assertProblem(await prepare(again, wallet.address, permit), 409, 'invalid_permit')
    assert.match(used.detail, /already used/)
  })

  test('invalid_permit: another signer, expired, another spender, less than amount_in, a value other than signed, another nonce; used by someone else first', async () => {
    const wallet = await holder()
    const amount = wallet.balance / 4n
    const quote = await sellQuote(wallet.address, amount)
    const offered = quote.permit.typed_data
    const deadline = Number(offered.message.deadline)
    const cases: [string, Record<string, unknown>][] = [
      ['another signer', { value: offered.message.value, deadline, signature: await sign(generatePrivateKey(), offered) }],
      [
        'another spender',
        { value: offered.message.value, deadline, signature: await sign(wallet.privateKey, offered, { message: { spender: weth } }) },
      ],
      [
        'another nonce',
        { value: offered.message.value, deadline, signature: await sign(wallet.privateKey, offered, { message: { nonce: '7' } }) },
      ],
      [
        'another token',
        {
          value: offered.message.value,
          deadline,
          signature: await sign(wallet.privateKey, offered, { domain: { verifyingContract: weth } }),
        },
      ],
      [
        'another chain',
        { value: offered.message.value, deadline, signature: await sign(wallet.privateKey, offered, { domain: { chainId: 1 } }) },
      ],
      // Signed for amount_in, sent as more: the signature is not over that value.
      ['a value other than signed', { value: (amount + 1n).toString(), deadline, signature: await sign(wallet.privateKey, offered) }],
      ['not a signature', { value: offered.message.value, deadline, signature: `0x${'11'.repeat(65)}` }],
    ]
    const short = (amount - 1n).toString()
    cases.push([
      'less than amount_in',
      { value: short, deadline, signature: await sign(wallet.privateKey, offered, { message: { value: short } }) },
    ])
    const { timestamp } = await client.getBlock()
    const expired = Number(timestamp) - 1
    cases.push([
      'expired',
      {
        value: offered.message.value,
        deadline: expired,
        signature: await sign(wallet.privateKey, offered, { message: { deadline: expired } }),
      },
    ])
    for (const [what, permit] of cases) {
      const problem = await assertProblem(await prepare(quote, wallet.address, permit), 409, 'invalid_permit')
      assert.doesNotMatch(problem.detail, /already used/, what)
    }
    // Nothing above consumed the nonce: the right permit still prepares.
    const signature = await sign(wallet.privateKey, offered)
    await ok(await prepare(quote, wallet.address, { value: offered.message.value, deadline, signature }))

    // Someone submits the signed permit to the token first (it is public once broadcast): the
    // nonce moved on, so the permit no longer matches the token's state.
    const { r, s, v } = (await import('viem')).parseSignature(signature)
    const { writeContractAndWait } = await import('../../../src/devnet/writeContractAndWait.ts')
    await writeContractAndWait({
      devnet: bed.devnet,
      address: token,
      abi: token20,
      functionName: 'permit',
      args: [wallet.address, router, amount, BigInt(deadline), Number(v), r, s],
      from: bed.devnet.market.accounts[6].address,
    })
    const frontRun = await assertProblem(
      await prepare(quote, wallet.address, { value: offered.message.value, deadline, signature }),
      409,
      'invalid_permit',
    )
    assert.match(frontRun.detail, /already used/)
    // The allowance it set is there: without a permit the swap now prepares as an approved one.
    await ok(await bed.post('/swaps/prepare', { quote_id: quote.quote_id, wallet: wallet.address }, { key }))
  })

  test('a permit with the native asset is incompatible_parameters; with a token that publishes no permit domain (WETH) unsupported_operation; a permit value of 0 invalid_amount', async () => {
    const wallet = await freshWallet(bed)
    const native = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' as Address
    const permit = { value: '1000', deadline: 2_000_000_000, signature: `0x${'11'.repeat(65)}` }
    const quoteOf = async (tokenIn: Address) =>
      (
        await ok(
          await bed.post(
            '/swaps/quote',
            { chain_id: chainId, wallet: wallet.address, token_in: tokenIn, token_out: token, amount_in: '1000' },
            { key },
          ),
        )
      ).data
    const nativeQuote = await quoteOf(native)
    assert.equal(nativeQuote.permit, null)
    await assertProblem(await prepare(nativeQuote, wallet.address, permit), 400, 'incompatible_parameters')
    const wethQuote = await quoteOf(weth)
    assert.equal(wethQuote.permit, null)
    await assertProblem(await prepare(wethQuote, wallet.address, permit), 422, 'unsupported_operation')
    const holderWallet = await holder()
    const quote = await sellQuote(holderWallet.address, holderWallet.balance / 8n)
    await assertProblem(await prepare(quote, holderWallet.address, { ...permit, value: '0' }), 422, 'invalid_amount')
    await assertProblem(await prepare(quote, holderWallet.address, { ...permit, v: 27 }), 400, 'unknown_parameter')
  })
})
