import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, type Hex, maxUint256, parseAbi, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { SCOPES } from '../../../src/gateway/auth/scopes.ts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import type { SwapService } from '../../../src/startSwapService.ts'
import type { GatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'
import { type SwapTestbed, startSwapTestbed } from './swapTestbed.ts'

// One user journey through HTTP on the gateway as `npm start` runs it (the swap service's solver
// in the same process, the embedded chain): a creator launches a token, a trader buys and sells
// it, the trades and holders are read, the creator claims its fees and its vested tokens, updates
// the token's metadata document and publishes an announcement. Every transaction is prepared by
// the gateway, signed with the actor's own key and broadcast by the test.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const erc20 = parseAbi([
  'function approve(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address, uint256) returns (bool)',
])

let service: SwapService
let bed: GatewayTestbed
let key: string
let client: PublicClient

let swap: SwapTestbed | undefined

beforeAll(async () => {
  swap = await startSwapTestbed({ apiKey: 'journey-key-0123456789abcdef' })
  ;({ service, bed } = swap)
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: [...SCOPES] })).key
  client = service.publicClient
}, 900_000)
afterAll(async () => {
  await swap?.stop()
})

async function ok(res: Promise<Response>, status = 200): Promise<Json> {
  const r = await res
  const body = await r.json()
  assert.equal(r.status, status, JSON.stringify(body))
  return body
}
async function until<T>(what: string, read: () => Promise<T | undefined>, tries = 150): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read().catch(() => undefined)
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${what}: not seen in time`)
}
async function send(privateKey: Hex, plan: Json) {
  const receipt = await signAndSend({ client, privateKey, tx: plan.data.tx })
  assert.equal(receipt.status, 'success', plan.data.kind)
  return receipt
}
async function wallet(): Promise<{ privateKey: Hex; address: Address }> {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  await bed.devnet.testClient.setBalance({ address, value: 10n ** 19n })
  return { privateKey, address }
}

test(
  'launch, buy, sell, read trades and holders, claim fees and vested tokens, update metadata, announce',
  { timeout: 300_000 },
  async () => {
    const chainId = bed.chain.chainId
    const weth = bed.chain.wrappedNative
    const router = service.deps.quoteService.router
    const creator = await wallet()
    const trader = await wallet()
    /** The trader's own signed `approve(router, 2²⁵⁶ − 1)` on `of`, as a wallet sends it. */
    const approveRouter = (of: Address) =>
      signAndSend({
        client,
        privateKey: trader.privateKey,
        tx: {
          chain_id: chainId,
          from: trader.address,
          to: of,
          data: `0x095ea7b3${router.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`,
          value: '0',
          gas: '100000',
        },
      })
    await writeContractAndWait({
      devnet: bed.devnet,
      address: weth,
      abi: erc20,
      functionName: 'transfer',
      args: [trader.address, 10n ** 18n],
      from: bed.devnet.market.accounts[0].address,
    })

    // Launch, with a tenth of the supply vesting to the creator over a minute.
    const launch = await ok(
      bed.post(
        '/launches/prepare',
        {
          chain_id: chainId,
          creator: creator.address,
          name: 'Journey',
          symbol: 'JRNY',
          starting_market_cap_raw: '20000000000000000000',
          vesting: { beneficiary: creator.address, bps: 1_000, lockup_seconds: 0, vesting_seconds: 60 },
        },
        { key, headers: { 'idempotency-key': `journey-${Date.now()}` } },
      ),
    )
    await send(creator.privateKey, launch)
    const token = launch.data.summary.predicted_token as Address
    await until('the token on the read API', async () =>
      (await bed.get(`/tokens/${chainId}/${token}`, { key })).status === 200 ? true : undefined,
    )

    // Buy with WETH: the swap market follows the new pool once it sees its creation.
    const buyQuote = await until('a route to the new token', async () => {
      const r = await bed.post(
        '/swaps/quote',
        { chain_id: chainId, wallet: trader.address, token_in: weth, token_out: token, amount_in: '100000000000000000' },
        { key },
      )
      return r.status === 200 ? ((await r.json()) as Json) : undefined
    })
    await writeContractAndWait({
      devnet: bed.devnet,
      address: weth,
      abi: erc20,
      functionName: 'approve',
      args: [router, maxUint256],
      from: bed.devnet.market.accounts[0].address,
    })
    await approveRouter(weth)
    const buy = await send(
      trader.privateKey,
      await ok(bed.post('/swaps/prepare', { quote_id: buyQuote.data.quote_id, wallet: trader.address }, { key })),
    )
    const held = await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [trader.address] })
    assert.ok(held >= BigInt(buyQuote.data.min_amount_out))

    // Sell half back.
    await approveRouter(token)
    // The market prices the sale once it has read the pool after the buy (it held no WETH before).
    const sellQuote = await until('a route back to WETH', async () => {
      const r = await bed.post(
        '/swaps/quote',
        { chain_id: chainId, wallet: trader.address, token_in: token, token_out: weth, amount_in: (held / 2n).toString() },
        { key },
      )
      return r.status === 200 ? ((await r.json()) as Json) : undefined
    })
    const sell = await send(
      trader.privateKey,
      await ok(bed.post('/swaps/prepare', { quote_id: sellQuote.data.quote_id, wallet: trader.address }, { key })),
    )

    // Trades and holders on the read API.
    const trades = await until('both trades', async () => {
      const page: Json = await (await bed.get(`/tokens/${chainId}/${token}/trades`, { key })).json()
      return page.data.length >= 2 ? page.data : undefined
    })
    assert.deepEqual(
      trades.slice(0, 2).map((t: Json) => [t.tx_hash, t.side]),
      [
        [sell.transactionHash, 'sell'],
        [buy.transactionHash, 'buy'],
      ],
    )
    const holders: Json = await ok(bed.get(`/tokens/${chainId}/${token}/holders`, { key }))
    assert.ok(
      holders.data.some((h: Json) => h.address === trader.address && BigInt(h.balance) === held - held / 2n),
      JSON.stringify(holders.data),
    )

    // The creator claims the trades' fees and, a minute later, its vested tokens.
    const fees = await ok(bed.post('/claims/fees/prepare', { chain_id: chainId, wallet: creator.address, positions: [{ token }] }, { key }))
    const feeClaim = await send(creator.privateKey, fees)
    await until('the fee claim', async () => {
      const page: Json = await (await bed.get(`/wallets/${creator.address}/fee-claims`, { key })).json()
      return page.data.find((p: Json) => p.last_claim?.tx_hash === feeClaim.transactionHash)
    })
    const block = await client.getBlock()
    await bed.devnet.testClient.setNextBlockTimestamp({ timestamp: block.timestamp + 61n })
    await bed.devnet.testClient.mine({ blocks: 1 })
    const vesting: Json = await ok(bed.get(`/wallets/${creator.address}/vesting`, { key }))
    const position = vesting.data.find((p: Json) => p.token.address === token)
    await send(
      creator.privateKey,
      await ok(
        bed.post(
          '/claims/vesting/prepare',
          { chain_id: chainId, wallet: creator.address, positions: [{ position_id: position.position_id }] },
          { key },
        ),
      ),
    )
    await until('the vesting claim', async () => {
      const page: Json = await (await bed.get(`/wallets/${creator.address}/vesting`, { key })).json()
      const now = page.data.find((p: Json) => p.position_id === position.position_id)
      return now.stage === 'claimed' ? now : undefined
    })

    // A new metadata document, then an announcement.
    const document = { name: 'Journey', symbol: 'JRNY', description: 'launched, traded, claimed' }
    const meta = await ok(
      bed.post(
        `/tokens/${chainId}/${token}/metadata/document/prepare`,
        { actor: creator.address, document },
        { key, headers: { 'idempotency-key': `journey-doc-${Date.now()}` } },
      ),
    )
    await send(creator.privateKey, meta)
    await until('the metadata document', async () => {
      const d: Json = await (await bed.get(`/tokens/${chainId}/${token}`, { key })).json()
      return d.data.metadata?.description === document.description ? true : undefined
    })
    const draft = await ok(
      bed.post(
        `/tokens/${chainId}/${token}/announcements/prepare`,
        { author: creator.address, title: 'Thanks', body: 'First week done.' },
        { key },
      ),
    )
    const typed = draft.data.typed_data
    const signature = await privateKeyToAccount(creator.privateKey).signTypedData({
      domain: typed.domain,
      types: typed.types,
      primaryType: 'Announcement',
      message: { ...typed.message, issuedAt: BigInt(typed.message.issuedAt) },
    })
    await ok(
      bed.post(`/tokens/${chainId}/${token}/announcements`, { announcement_id: draft.data.announcement_id, signature }, { key }),
      201,
    )
    const announcements: Json = await ok(bed.get(`/tokens/${chainId}/${token}/announcements`, { key }))
    assert.equal(announcements.data[0].title, 'Thanks')
  },
)
