import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, parseAbi, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import type { SwapService } from '../../../src/startSwapService.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import type { GatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'
import { approveFromDevAccount, encodeApprove, freshWallet as fundedWallet, type SwapTestbed, startSwapTestbed } from './swapTestbed.ts'

// Swap quote and prepare through HTTP on a running gateway whose swaps are priced by the swap
// service's own solver in the same process (as `npm start` wires them), on the embedded chain:
// the happy path (quote, prepare, sign with the wallet's own key, broadcast, the trade on the read
// API, the plan on GET /plans/{id}), every problem code the routes raise, idempotent replays and
// the per-wallet ceilings under 100-way concurrency.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])

let service: SwapService
let bed: GatewayTestbed
let swap: SwapTestbed | undefined
let key: string
let client: PublicClient
let weth: Address
let token: Address
let chainId: number
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)

beforeAll(async () => {
  swap = await startSwapTestbed({ apiKey: 'swap-test-key-0123456789abcdef' })
  ;({ service, bed } = swap)
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['swap:write', 'tokens:read', 'transactions:read'] })).key
  client = service.publicClient
  chainId = bed.chain.chainId
  weth = bed.chain.wrappedNative
  token = bed.devnet.market.launchpad!.tokens[0].address
}, 900_000)
afterAll(async () => {
  await swap?.stop()
})

const freshWallet = (options?: { fund?: boolean }) => fundedWallet(bed, options)

const quoteBody = (wallet: Address, extra: Record<string, unknown> = {}) => ({
  chain_id: chainId,
  wallet,
  token_in: weth,
  token_out: token,
  amount_in: '1000000000000000',
  ...extra,
})

describe('swap quote and prepare: the happy path end to end', () => {
  test('quote, approve, prepare, sign with the wallet, broadcast: the trade is on the read API, the plan on GET /plans/{id}', async () => {
    const wallet = await freshWallet()
    const quoteRes = await bed.post('/swaps/quote', quoteBody(wallet.address), { key })
    const quote: Json = await quoteRes.json()
    assert.equal(quoteRes.status, 200, JSON.stringify(quote))
    assert.match(quote.data.quote_id, /^quote_/)
    assert.ok(BigInt(quote.data.amount_out) > 0n)
    assert.ok(BigInt(quote.data.min_amount_out) < BigInt(quote.data.amount_out))
    assert.equal(quote.data.slippage_bps, 50)
    assert.equal(typeof quote.data.price_impact_bps, 'number')
    assert.ok(Date.parse(quote.data.expires_at) > Date.now())
    // WETH publishes no EIP-2612 domain: no permit is offered (swapPermits.test.ts has the permit path).
    assert.equal(quote.data.permit, null)
    // The router is not yet approved: approval_not_confirmed, nothing prepared.
    const early = await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: wallet.address }, { key }),
      409,
      'approval_not_confirmed',
    )
    assert.equal(early.asset.toLowerCase(), weth.toLowerCase())
    await signAndSend({
      client,
      privateKey: wallet.privateKey,
      tx: {
        chain_id: chainId,
        from: wallet.address,
        to: weth,
        data: encodeApprove(service.deps.quoteService.router),
        value: '0',
        gas: '100000',
      },
    })
    const prepared = await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: wallet.address }, { key })
    const plan: Json = await prepared.json()
    assert.equal(prepared.status, 200, JSON.stringify(plan))
    assert.equal(plan.data.kind, 'swap')
    assert.equal(plan.data.tx.to.toLowerCase(), service.deps.quoteService.router.toLowerCase())
    assert.equal(plan.data.from, wallet.address)
    assert.deepEqual(plan.data.requires, [
      { kind: 'approval', token: weth, spender: service.deps.quoteService.router, amount: '1000000000000000' },
    ])
    assert.ok(BigInt(plan.data.tx.gas) > BigInt(plan.data.simulation.gas_used))
    const fetched: Json = await (await bed.get(`/plans/${plan.data.plan_id}`, { key })).json()
    assert.deepEqual(fetched.data, plan.data)
    const before = await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [wallet.address] })
    const receipt = await signAndSend({ client, privateKey: wallet.privateKey, tx: plan.data.tx })
    assert.equal(receipt.status, 'success')
    const after = await client.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [wallet.address] })
    assert.ok(after - before >= BigInt(quote.data.min_amount_out))
    // The indexer follows the token's pool: the trade appears on the read API.
    let trade: Json
    for (let i = 0; i < 100 && !trade; i++) {
      const trades: Json = await (await bed.get(`/tokens/${chainId}/${token}/trades?limit=5`, { key })).json()
      trade = trades.data.find((t: Json) => t.tx_hash === receipt.transactionHash)
      if (!trade) await new Promise((r) => setTimeout(r, 100))
    }
    assert.ok(trade, 'the trade is on GET /tokens/{chain}/{token}/trades')
    assert.equal(trade.side, 'buy')
  })
})

describe('swap problems', () => {
  test('insufficient_balance names the asset, what the wallet holds and what it needs', async () => {
    const wallet = await freshWallet({ fund: false })
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(wallet.address), { key })).json()
    const body = await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: wallet.address }, { key }),
      422,
      'insufficient_balance',
    )
    assert.deepEqual([body.asset.toLowerCase(), body.actual_raw, body.required_raw], [weth.toLowerCase(), '0', '1000000000000000'])
  })

  test('stale_quote after expiry, not_found for another key, wallet_not_authorized for another wallet; stale_plan after expiry or a configuration change', async () => {
    const wallet = await freshWallet()
    await approveFromDevAccount({
      bed,
      token: weth,
      spender: service.deps.quoteService.router,
      from: bed.devnet.market.accounts[1].address,
    })
    const dev = bed.devnet.market.accounts[1].address
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(dev), { key })).json()
    const other = (await bed.key({ scopes: ['swap:write', 'transactions:read'] })).key
    await assertProblem(await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key: other }), 404, 'not_found')
    await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: wallet.address }, { key }),
      403,
      'wallet_not_authorized',
    )
    const plan: Json = await (await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key })).json()
    assert.equal(plan.data.kind, 'swap', JSON.stringify(plan))
    await assertProblem(await bed.get(`/plans/${plan.data.plan_id}`, { key: other }), 404, 'not_found')
    await bed.db.execute('UPDATE swap_quotes SET expires_at = 0 WHERE quote_id = $1', [quote.data.quote_id])
    await assertProblem(await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key }), 409, 'stale_quote')
    await bed.db.execute('UPDATE transaction_plans SET config_digest = $1 WHERE plan_id = $2', ['another configuration', plan.data.plan_id])
    assert.match((await assertProblem(await bed.get(`/plans/${plan.data.plan_id}`, { key }), 409, 'stale_plan')).detail, /configuration/)
    await bed.db.execute('UPDATE transaction_plans SET expires_at = 0 WHERE plan_id = $1', [plan.data.plan_id])
    assert.match((await assertProblem(await bed.get(`/plans/${plan.data.plan_id}`, { key }), 409, 'stale_plan')).detail, /expired/)
    await assertProblem(await bed.get('/plans/plan_00000000000000000000000000', { key }), 404, 'not_found')
  })

  test('a pool that moved past the quote since it was made: the simulation answers stale_quote', async () => {
    const dev = bed.devnet.market.accounts[1].address
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(dev, { slippage_bps: 0 }), { key })).json()
    // Another buyer moves the price up: the same input now buys less than min_amount_out.
    const mover = await bed.post('/swaps/quote', quoteBody(dev, { amount_in: '50000000000000000', max_price_impact_bps: 10_000 }), { key })
    const moverQuote: Json = await mover.json()
    const moverPlan: Json = await (await bed.post('/swaps/prepare', { quote_id: moverQuote.data.quote_id, wallet: dev }, { key })).json()
    await client.request({
      method: 'eth_sendTransaction' as never,
      params: [
        {
          from: dev,
          to: moverPlan.data.tx.to,
          data: moverPlan.data.tx.data,
          value: '0x0',
          gas: `0x${BigInt(moverPlan.data.tx.gas).toString(16)}`,
        },
      ] as never,
    })
    await client.request({ method: 'evm_mine' as never })
    await assertProblem(await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key }), 409, 'stale_quote')
  })

  test('invalid_amount, unsupported_chain, quote_unavailable, unknown_parameter, no coercion of body types, scope', async () => {
    const dev = bed.devnet.market.accounts[2].address
    await assertProblem(await bed.post('/swaps/quote', quoteBody(dev, { amount_in: '0' }), { key }), 422, 'invalid_amount')
    await assertProblem(
      await bed.post('/swaps/quote', quoteBody(dev, { amount_in: (2n ** 256n).toString() }), { key }),
      422,
      'invalid_amount',
    )
    await assertProblem(await bed.post('/swaps/quote', quoteBody(dev, { chain_id: 999 }), { key }), 422, 'unsupported_chain')
    // A trade far too large for the token's pool moves its price past any limit.
    await assertProblem(
      await bed.post('/swaps/quote', quoteBody(dev, { amount_in: (10n ** 24n).toString(), max_price_impact_bps: 100 }), { key }),
      422,
      'quote_unavailable',
    )
    const unknown = await assertProblem(
      await bed.post('/swaps/quote', quoteBody(dev, { referrer: dev, deadline: 5 }), { key }),
      400,
      'unknown_parameter',
    )
    assert.deepEqual(unknown.invalid_parameters.map((p: Json) => p.name).sort(), ['deadline', 'referrer'])
    const coerced = await assertProblem(
      await bed.post('/swaps/quote', quoteBody(dev, { chain_id: String(chainId) }), { key }),
      400,
      'invalid_parameter',
    )
    assert.deepEqual(
      coerced.invalid_parameters.map((p: Json) => p.name),
      ['chain_id'],
    )
    await assertProblem(await bed.post('/swaps/quote', '{"chain_id":', { key }), 400, 'invalid_request')
    const readOnly = (await bed.key()).key
    await assertProblem(await bed.post('/swaps/quote', quoteBody(dev), { key: readOnly }), 403, 'insufficient_scope')
  })
})

describe('Idempotency-Key on swap prepare (spec §3, §8) and the per-wallet ceilings under concurrency', () => {
  test('a completed prepare is replayed byte for byte (status, body, headers); other input is idempotency_key_reused; a bad key is invalid_idempotency_key', async () => {
    const dev = bed.devnet.market.accounts[3].address
    await approveFromDevAccount({ bed, token: weth, spender: service.deps.quoteService.router, from: dev })
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(dev), { key })).json()
    const headers = { 'idempotency-key': `swap-${Date.now()}` }
    const first = await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key, headers })
    const firstText = await first.text()
    assert.equal(first.status, 200, firstText)
    // The same request, its body's keys in another order: the same request.
    const replay = await bed.post('/swaps/prepare', `{"wallet":"${dev}","quote_id":"${quote.data.quote_id}"}`, { key, headers })
    assert.equal(replay.status, 200)
    assert.equal(await replay.text(), firstText)
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
    assert.equal(replay.headers.get('content-type'), first.headers.get('content-type'))
    assert.notEqual(replay.headers.get('x-request-id'), first.headers.get('x-request-id'))
    const plans = await bed.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM transaction_plans WHERE body LIKE $1', [
      `%${quote.data.quote_id}%`,
    ])
    assert.equal(Number(plans[0].n), 1, 'the replay prepared nothing')
    await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: bed.devnet.market.accounts[4].address }, { key, headers }),
      422,
      'idempotency_key_reused',
    )
    // Another API key uses the same value independently.
    const otherKey = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['swap:write'] })).key
    await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key: otherKey, headers }),
      404,
      'not_found',
    )
    await assertProblem(
      await bed.post(
        '/swaps/prepare',
        { quote_id: quote.data.quote_id, wallet: dev },
        { key, headers: { 'idempotency-key': 'x'.repeat(256) } },
      ),
      400,
      'invalid_idempotency_key',
    )
    await assertProblem(
      await bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key, headers: { 'idempotency-key': '' } }),
      400,
      'invalid_idempotency_key',
    )
  })

  test('100 concurrent identical prepares with one Idempotency-Key: exactly one prepares, the others are in progress, refused by the ceiling, or identical replays', async () => {
    const dev = bed.devnet.market.accounts[5].address
    await approveFromDevAccount({ bed, token: weth, spender: service.deps.quoteService.router, from: dev })
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(dev), { key })).json()
    const headers = { 'idempotency-key': `burst-${Date.now()}` }
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key, headers })),
    )
    const texts = await Promise.all(answers.map((r) => r.text()))
    const ran = answers.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') !== 'true')
    assert.equal(ran.length, 1, JSON.stringify(answers.map((r) => r.status)))
    const ok = texts.filter((_, i) => answers[i].status === 200)
    for (const t of ok) assert.equal(t, ok[0])
    const inProgress = texts.filter((t, i) => answers[i].status === 409 && JSON.parse(t).code === 'idempotency_in_progress').length
    const refused = texts.filter(
      (t, i) => answers[i].status === 429 && JSON.parse(t).violated_policies.includes('swap_preparations_per_wallet'),
    ).length
    assert.equal(ok.length + inProgress + refused, 100)
    // Requests charged to the ceiling before the first completed: at most 30 (replays are not charged).
    assert.ok(1 + inProgress <= 30)
    const [plans] = await bed.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM transaction_plans WHERE body LIKE $1', [
      `%${quote.data.quote_id}%`,
    ])
    assert.equal(Number(plans.n), 1)
  })

  test('swap preparations: at most 30 per wallet per minute, exactly, under 100-way concurrency', async () => {
    const dev = bed.devnet.market.accounts[7].address
    await approveFromDevAccount({ bed, token: weth, spender: service.deps.quoteService.router, from: dev })
    const quote: Json = await (await bed.post('/swaps/quote', quoteBody(dev), { key })).json()
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => bed.post('/swaps/prepare', { quote_id: quote.data.quote_id, wallet: dev }, { key })),
    )
    assert.equal(answers.filter((r) => r.status === 200).length, 30)
    assert.equal(answers.filter((r) => r.status === 429).length, 70)
  })

  test('swap quotes: at most 60 per wallet per minute across all keys, exactly, under 100-way concurrency', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address
    const keys = [key, (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['swap:write'] })).key]
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        bed.post('/swaps/quote', quoteBody(wallet, { amount_in: '1000000000000' }), { key: keys[i % 2] }),
      ),
    )
    const statuses = answers.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 200).length, 60, JSON.stringify(statuses))
    assert.equal(statuses.filter((s) => s === 429).length, 40)
  })
})
