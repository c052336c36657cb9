import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Hex, type PublicClient, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'

// Fee and vesting claim preparation through HTTP on a running gateway over the seeded launchpad:
// the happy paths (a batch of fee positions through Multicall3, a vesting position once vested:
// prepare, sign with the holder's own key, broadcast, the claim on the read API), every code the
// routes raise, the units per position and the claim ceilings under concurrency.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
/** The seeded launchpad's actors are anvil's mnemonic accounts from index 20 (src/devnet/launchpad/seedLaunchpad.ts). */
const actor = (i: number) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 20 + i })
const privateKeyOf = (i: number) => toHex(actor(i).getHdKey().privateKey!) as Hex

let bed: GatewayTestbed
let client: PublicClient
let key: string
let chainId: number
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)
const creators = () => bed.devnet.market.launchpad!.creators

beforeAll(async () => {
  bed = await startGatewayTestbed({})
  client = bed.devnet.publicClient as unknown as PublicClient
  chainId = bed.chain.chainId
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['claims:write', 'wallets:read', 'tokens:read'] })).key
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

async function waitFor<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('not seen within 10 s')
}

describe('fee claims', () => {
  test('a batch of two positions in one Multicall3 transaction: prepare, sign, broadcast, the claims on the read API; then nothing_to_claim', async () => {
    // The first creator with two positions that can claim now.
    let index = -1
    let positions: Json[] = []
    for (let i = 0; i < creators().length && index < 0; i++) {
      const page: Json = await (await bed.get(`/wallets/${creators()[i]}/fee-claims?limit=100`, { key })).json()
      const open = page.data.filter((p: Json) => BigInt(p.claimable.token_raw) + BigInt(p.claimable.paired_raw) > 0n)
      if (open.length >= 2 && actor(i).address === creators()[i]) {
        index = i
        positions = open.slice(0, 2)
      }
    }
    assert.ok(index >= 0, 'a seeded creator has two claimable fee positions')
    const wallet = creators()[index]
    const body = { chain_id: chainId, wallet, positions: positions.map((p) => ({ token: p.token.address })) }
    // A fresh key: its minute shows what the prepare cost.
    const fresh = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['claims:write'] })).key
    const res = await bed.post('/claims/fees/prepare', body, { key: fresh })
    const plan: Json = await res.json()
    assert.equal(res.status, 200, JSON.stringify(plan))
    assert.equal(plan.data.kind, 'claim_fees')
    assert.equal(plan.data.tx.to.toLowerCase(), bed.chain.multicall3.toLowerCase())
    assert.match(res.headers.get('ratelimit')!, /"minute";r=99994/, 'two positions cost 6 units')
    const receipt = await signAndSend({ client, privateKey: privateKeyOf(index), tx: plan.data.tx })
    assert.equal(receipt.status, 'success')
    for (const p of positions) {
      const claimed = await waitFor(async () => {
        const page: Json = await (await bed.get(`/wallets/${wallet}/fee-claims?limit=100`, { key })).json()
        const now = page.data.find((x: Json) => x.token.address === p.token.address)
        return now?.last_claim?.tx_hash === receipt.transactionHash ? now : undefined
      })
      assert.equal(claimed.claim_count, p.claim_count + 1)
    }
    await assertProblem(await bed.post('/claims/fees/prepare', body, { key }), 409, 'nothing_to_claim')
  })

  test('wallet_not_authorized for a token whose fees the wallet does not share, not_found for a token not launched here; batch bounds; repeats', async () => {
    const lp = bed.devnet.market.launchpad!
    const page: Json = await (await bed.get(`/wallets/${creators()[0]}/fee-claims?limit=100`, { key })).json()
    const mine = new Set(page.data.map((p: Json) => p.token.address.toLowerCase()))
    const notMine = lp.tokens.find((t) => !mine.has(t.address.toLowerCase()))!.address
    await assertProblem(
      await bed.post('/claims/fees/prepare', { chain_id: chainId, wallet: creators()[0], positions: [{ token: notMine }] }, { key }),
      403,
      'wallet_not_authorized',
    )
    await assertProblem(
      await bed.post('/claims/fees/prepare', { chain_id: chainId, wallet: creators()[0], positions: [{ token: lp.weth }] }, { key }),
      404,
      'not_found',
    )
    await assertProblem(
      await bed.post('/claims/fees/prepare', { chain_id: chainId, wallet: creators()[0], positions: [] }, { key }),
      400,
      'invalid_parameter',
    )
    await assertProblem(
      await bed.post(
        '/claims/fees/prepare',
        { chain_id: chainId, wallet: creators()[0], positions: Array.from({ length: 11 }, () => ({ token: notMine })) },
        { key },
      ),
      400,
      'invalid_parameter',
    )
    await assertProblem(
      await bed.post(
        '/claims/fees/prepare',
        { chain_id: chainId, wallet: creators()[0], positions: [{ token: notMine }, { token: notMine.toLowerCase() }] },
        { key },
      ),
      400,
      'invalid_parameter',
    )
    await assertProblem(
      await bed.post('/claims/fees/prepare', { chain_id: 1, wallet: creators()[0], positions: [{ token: notMine }] }, { key }),
      422,
      'unsupported_chain',
    )
    await assertProblem(await bed.post('/claims/prepare', { kind: 'fee' }, { key }), 404, 'not_found')
  })
})

describe('vesting claims', () => {
  test('once vested: prepare, sign, broadcast, the claim on the read API; another wallet is wallet_not_authorized; an unknown position not_found', async () => {
    let index = -1
    let position: Json
    for (let i = 0; i < creators().length && index < 0; i++) {
      const page: Json = await (await bed.get(`/wallets/${creators()[i]}/vesting?limit=100`, { key })).json()
      const open = page.data.find((p: Json) => p.stage !== 'claimed')
      if (open && actor(i).address === creators()[i]) {
        index = i
        position = open
      }
    }
    assert.ok(index >= 0, 'a seeded creator has an unclaimed vesting position')
    const wallet = creators()[index]
    const body = { chain_id: chainId, wallet, positions: [{ position_id: position.position_id }] }
    if (BigInt(position.claimable) === 0n) {
      await assertProblem(await bed.post('/claims/vesting/prepare', body, { key }), 409, 'nothing_to_claim')
      // Time passes to the end of the vesting.
      const ends = Math.floor(Date.parse(position.vesting_ends_at) / 1000)
      const block = await client.getBlock()
      await bed.devnet.testClient.setNextBlockTimestamp({ timestamp: BigInt(Math.max(ends, Number(block.timestamp)) + 1) })
      await bed.devnet.testClient.mine({ blocks: 1 })
    }
    const res = await bed.post('/claims/vesting/prepare', body, { key })
    const plan: Json = await res.json()
    assert.equal(res.status, 200, JSON.stringify(plan))
    assert.equal(plan.data.tx.to.toLowerCase(), bed.chain.launchpad.vestingVault.toLowerCase())
    const receipt = await signAndSend({ client, privateKey: privateKeyOf(index), tx: plan.data.tx })
    assert.equal(receipt.status, 'success')
    const claimed = await waitFor(async () => {
      const page: Json = await (await bed.get(`/wallets/${wallet}/vesting?limit=100`, { key })).json()
      const now = page.data.find((x: Json) => x.position_id === position.position_id)
      return now && now.claim_count === position.claim_count + 1 ? now : undefined
    })
    assert.ok(BigInt(claimed.claimed) > BigInt(position.claimed))
    const other = creators().find((c) => c !== wallet)!
    await assertProblem(
      await bed.post(
        '/claims/vesting/prepare',
        { chain_id: chainId, wallet: other, positions: [{ position_id: position.position_id }] },
        { key },
      ),
      403,
      'wallet_not_authorized',
    )
    await assertProblem(
      await bed.post('/claims/vesting/prepare', { chain_id: chainId, wallet, positions: [{ position_id: 999_999 }] }, { key }),
      404,
      'not_found',
    )
  })
})

describe('claim ceilings (spec §8)', () => {
  test('claim batches per chain and caller across keys: exactly 10 a minute under 100-way concurrency; per key 20', async () => {
    const wallet = creators()[7]
    const token = bed.devnet.market.launchpad!.tokens[0].address
    const keys = [key, (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['claims:write'] })).key]
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        bed.post('/claims/fees/prepare', { chain_id: chainId, wallet, positions: [{ token }] }, { key: keys[i % 2] }),
      ),
    )
    const refused: Json[] = await Promise.all(answers.filter((r) => r.status === 429).map((r) => r.json()))
    assert.equal(100 - refused.length, 10)
    assert.ok(refused.every((b) => b.violated_policies.includes('claim_batches_per_caller')))
    const perKey = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['claims:write'] })).key
    const wallets = creators().slice(0, 6)
    const many = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        bed.post(
          '/claims/vesting/prepare',
          { chain_id: chainId, wallet: wallets[i % 6], positions: [{ position_id: 1 }] },
          { key: perKey },
        ),
      ),
    )
    assert.equal(many.filter((r) => r.status !== 429).length, 20)
  })
})
