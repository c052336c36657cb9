import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Address, getAddress, type Hex, parseAbi, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { writeContractAndWait } from '../../../src/devnet/writeContractAndWait.ts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'

// POST /launches/prepare through HTTP on a running gateway on the embedded chain: prepare with an
// Idempotency-Key, sign with the creator's own key, broadcast, and the read API shows the token;
// the salt reservation and the griefed pool (salt_unavailable); every code the route raises; the
// launch ceilings under 100-way concurrency. Each test speaks from its own source address
// (X-Forwarded-For, trusted here), since the launch workflow allows 6 per source per minute.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const v3Factory = parseAbi([
  'function createPool(address, address, uint24) returns (address)',
  'function getPool(address, address, uint24) view returns (address)',
])
const v3Pool = parseAbi(['function initialize(uint160)'])

let bed: GatewayTestbed
let client: PublicClient
let chainId: number
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)
const newKey = async () =>
  (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['launch:write', 'tokens:read', 'transactions:read'] })).key
let sourceCount = 0
/** A fresh source address (each test's own launch workflow ceiling). */
const newSource = () => `10.0.${Math.floor(++sourceCount / 250)}.${sourceCount % 250}`

beforeAll(async () => {
  bed = await startGatewayTestbed({ trustProxy: true })
  client = bed.devnet.publicClient as unknown as PublicClient
  chainId = bed.chain.chainId
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

async function creatorWallet({ eth = 10n ** 18n }: { eth?: bigint } = {}) {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  if (eth > 0n) await bed.devnet.testClient.setBalance({ address, value: eth })
  return { privateKey, address }
}

const launchBody = (creator: Address, extra: Record<string, unknown> = {}) => ({
  chain_id: chainId,
  creator,
  name: 'Gateway Moon',
  symbol: 'GMOON',
  ...extra,
})
const prepare = (
  body: unknown,
  { key, source, idem = randomBytes(16).toString('hex') }: { key: string; source: string; idem?: string | null },
) =>
  bed.post('/launches/prepare', body, {
    key,
    headers: { 'x-forwarded-for': source, ...(idem === null ? {} : { 'idempotency-key': idem }) },
  })

describe('launch prepare: the happy path end to end', () => {
  test('prepare, sign with the creator, broadcast: the token, its vesting and its launch transaction are on the read API; a retry with the key replays', async () => {
    const key = await newKey()
    const source = newSource()
    const creator = await creatorWallet()
    const partner = privateKeyToAccount(generatePrivateKey()).address
    const body = launchBody(creator.address, {
      metadata_uri: 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      rewards: [
        { recipient: creator.address, bps: 8_000 },
        { recipient: partner, bps: 2_000 },
      ],
      vesting: { beneficiary: creator.address, bps: 1_000, lockup_seconds: 3_600, vesting_seconds: 86_400 },
      starting_market_cap_raw: '5000000000000000000',
    })
    const idem = `launch-${Date.now()}`
    const res = await prepare(body, { key, source, idem })
    const text = await res.text()
    assert.equal(res.status, 200, text)
    const plan: Json = JSON.parse(text)
    assert.equal(plan.data.kind, 'launch')
    assert.equal(plan.data.tx.to, getAddress(bed.chain.launchpad.factory))
    assert.equal(plan.data.from, creator.address)
    assert.match(plan.data.summary.salt, /^0x[0-9a-f]{64}$/)
    const predicted = plan.data.summary.predicted_token as Address
    assert.deepEqual(plan.data.summary.rewards, [
      { recipient: creator.address, bps: 8_000 },
      { recipient: partner, bps: 2_000 },
    ])
    // The retry with the same key and body: the same plan, byte for byte, nothing prepared again.
    const replay = await prepare({ ...body }, { key, source, idem })
    assert.equal(await replay.text(), text)
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
    const [reserved] = await bed.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM launch_salts WHERE creator = $1', [
      creator.address.toLowerCase(),
    ])
    assert.equal(Number(reserved.n), 1)
    const receipt = await signAndSend({ client, privateKey: creator.privateKey, tx: plan.data.tx })
    assert.equal(receipt.status, 'success')
    assert.equal(
      await client.readContract({
        address: bed.chain.launchpad.uniswapV3Factory,
        abi: v3Factory,
        functionName: 'getPool',
        args: [predicted, bed.chain.wrappedNative, 10_000],
      }),
      plan.data.summary.predicted_pool,
    )
    let detail: Json
    for (let i = 0; i < 100; i++) {
      const r = await bed.get(`/tokens/${chainId}/${predicted}`, { key })
      if (r.status === 200) {
        detail = await r.json()
        break
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.ok(detail, 'the launched token is on GET /tokens/{chain}/{token}')
    assert.equal(detail.data.address, predicted)
    assert.equal(detail.data.symbol, 'GMOON')
    const status: Json = await (await bed.get(`/transactions/${chainId}/${receipt.transactionHash}`, { key })).json()
    assert.equal(status.data.launched_token?.address ?? status.data.launched_token, predicted)
    // The salt is used now: preparing with it again (another key, so the creator ceiling is not in the way) is salt_unavailable.
    const again = await prepare({ ...body, salt: plan.data.summary.salt }, { key: await newKey(), source })
    await assertProblem(again, 409, 'salt_unavailable')
  })
})

describe('launch prepare: salts and the griefed pool', () => {
  test('someone initialises the pool of a prepared salt first: salt_unavailable; a prepare without that salt gets a fresh one; another creator cannot take a reserved salt', async () => {
    const source = newSource()
    const creator = await creatorWallet()
    const salt = `0x${randomBytes(32).toString('hex')}` as Hex
    const first: Json = await (await prepare(launchBody(creator.address, { salt }), { key: await newKey(), source })).json()
    assert.equal(first.data.summary.salt, salt, JSON.stringify(first))
    // Another creator asks for the reserved salt.
    const other = await creatorWallet()
    await assertProblem(await prepare(launchBody(other.address, { salt }), { key: await newKey(), source }), 409, 'salt_unavailable')
    // The griefer creates and initialises the predicted pool before the launch is sent.
    const griefer = bed.devnet.market.accounts[6].address
    await writeContractAndWait({
      devnet: bed.devnet,
      address: bed.chain.launchpad.uniswapV3Factory,
      abi: v3Factory,
      functionName: 'createPool',
      args: [first.data.summary.predicted_token, bed.chain.wrappedNative, 10_000],
      from: griefer,
    })
    await writeContractAndWait({
      devnet: bed.devnet,
      address: first.data.summary.predicted_pool,
      abi: v3Pool,
      functionName: 'initialize',
      args: [2n ** 96n],
      from: griefer,
    })
    const griefed = await assertProblem(
      await prepare(launchBody(creator.address, { salt }), { key: await newKey(), source }),
      409,
      'salt_unavailable',
    )
    assert.match(griefed.detail, /initialised/)
    const fresh: Json = await (await prepare(launchBody(creator.address), { key: await newKey(), source })).json()
    assert.notEqual(fresh.data.summary.salt, salt)
    assert.notEqual(fresh.data.summary.predicted_token, first.data.summary.predicted_token)
  })
})

describe('launch prepare: problems', () => {
  test('missing_idempotency_key, invalid_allocation, invalid_vesting, invalid_referrer, unsupported_chain cost nothing; unsupported_operation and insufficient_balance after the limiter', async () => {
    const key = await newKey()
    const source = newSource()
    const creator = await creatorWallet({ eth: 0n })
    await assertProblem(await prepare(launchBody(creator.address), { key, source, idem: null }), 400, 'missing_idempotency_key')
    await assertProblem(
      await prepare(launchBody(creator.address, { rewards: [{ recipient: creator.address, bps: 9_000 }] }), { key, source }),
      422,
      'invalid_allocation',
    )
    await assertProblem(
      await prepare(
        launchBody(creator.address, { vesting: { beneficiary: creator.address, bps: 3_500, lockup_seconds: 0, vesting_seconds: 10 } }),
        { key, source },
      ),
      422,
      'invalid_allocation',
    )
    await assertProblem(
      await prepare(
        launchBody(creator.address, { vesting: { beneficiary: creator.address, bps: 500, lockup_seconds: 0, vesting_seconds: 0 } }),
        { key, source },
      ),
      422,
      'invalid_vesting',
    )
    await assertProblem(await prepare(launchBody(creator.address, { referrer: creator.address }), { key, source }), 422, 'invalid_referrer')
    await assertProblem(
      await prepare(launchBody(creator.address, { referrer: bed.chain.launchpad.feeLocker }), { key, source }),
      422,
      'invalid_referrer',
    )
    await assertProblem(await prepare(launchBody(creator.address, { chain_id: 1 }), { key, source }), 422, 'unsupported_chain')
    await assertProblem(await prepare(launchBody(creator.address, { decimals: 6 }), { key, source }), 400, 'unknown_parameter')
    await assertProblem(await prepare(launchBody(creator.address, { name: 7 }), { key, source }), 400, 'invalid_parameter')
    const allowed = new Set(bed.devnet.market.launchpad!.pairedTokens.map((t) => t.toLowerCase()))
    const notPaired = Object.values(bed.devnet.market.tokens).find((t) => !allowed.has(t.address.toLowerCase()))!.address
    await assertProblem(
      await prepare(launchBody(creator.address, { paired_asset: notPaired }), { key, source }),
      422,
      'unsupported_operation',
    )
    const broke = await assertProblem(
      await prepare(launchBody(creator.address, { dev_buy: { amount_raw: '1000000000000000' } }), { key: await newKey(), source }),
      422,
      'insufficient_balance',
    )
    assert.deepEqual([broke.actual_raw, broke.required_raw], ['0', '1000000000000000'])
  })

  test('ceilings under 100-way concurrency: one key prepares exactly 3 launches a minute (distinct creators); one creator exactly 1 per key', async () => {
    const key = await newKey()
    const creators = await Promise.all(Array.from({ length: 100 }, () => creatorWallet({ eth: 0n })))
    const answers = await Promise.all(
      creators.map((c, i) => prepare(launchBody(c.address), { key, source: `10.9.${Math.floor(i / 5)}.${i % 5}` })),
    )
    const statuses = answers.map((r) => r.status)
    assert.equal(statuses.filter((s) => s === 200).length, 3, JSON.stringify(statuses))
    const refused: Json[] = await Promise.all(answers.filter((r) => r.status === 429).map((r) => r.json()))
    assert.equal(refused.length, 97)
    assert.ok(refused.every((b) => b.code === 'quota_exceeded' && b.violated_policies.includes('launches_per_key')))
    const one = await creatorWallet({ eth: 0n })
    const other = await newKey()
    const sameCreator = await Promise.all(
      Array.from({ length: 100 }, (_, i) => prepare(launchBody(one.address), { key: other, source: `10.8.${Math.floor(i / 5)}.${i % 5}` })),
    )
    assert.equal(sameCreator.filter((r) => r.status === 200).length, 1)
    assert.equal(sameCreator.filter((r) => r.status === 429).length, 99)
  })

  test('the shared launch workflow: 6 per source per minute across keys', async () => {
    const source = newSource()
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () =>
        prepare(launchBody((await creatorWallet({ eth: 0n })).address), { key: await newKey(), source }),
      ),
    )
    assert.equal(answers.filter((r) => r.status === 200).length, 6)
    const refused: Json[] = await Promise.all(answers.filter((r) => r.status === 429).map((r) => r.json()))
    assert.ok(refused.every((b) => b.violated_policies.includes('launch_workflow_per_source')))
  })
})
