import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// Announcements through HTTP on a running gateway over the seeded launchpad: the creator prepares
// one, signs the typed data with its own key (EIP-712, as a wallet's eth_signTypedData_v4 does),
// posts the signature back, and the read route serves it; every code of the two routes.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const actor = (i: number) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 20 + i })

let bed: GatewayTestbed
let key: string
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)

beforeAll(async () => {
  bed = await startGatewayTestbed({})
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['announcements:write', 'tokens:read'] })).key
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

test('prepare, sign with the creator, publish: the read route serves it; a second publish is announcement_id_conflict; others are refused', async () => {
  const lp = bed.devnet.market.launchpad!
  const t = lp.tokens[5]
  const account = actor(lp.creators.indexOf(t.creator))
  assert.equal(account.address, t.creator)
  const path = `/tokens/${bed.chain.chainId}/${t.address}/announcements`
  const prepared = await bed.post(
    `${path}/prepare`,
    { author: t.creator, title: 'Listing soon', body: 'We are adding liquidity on Friday.' },
    { key },
  )
  const draft: Json = await prepared.json()
  assert.equal(prepared.status, 200, JSON.stringify(draft))
  const { typed_data: typed } = draft.data
  const signature = await account.signTypedData({
    domain: typed.domain,
    types: typed.types,
    primaryType: 'Announcement',
    message: { ...typed.message, issuedAt: BigInt(typed.message.issuedAt) },
  })
  // Someone else's signature of the same message is refused.
  const stranger = actor(lp.creators.indexOf(lp.creators.find((c) => c !== t.creator)!))
  const forged = await stranger.signTypedData({
    domain: typed.domain,
    types: typed.types,
    primaryType: 'Announcement',
    message: { ...typed.message, issuedAt: BigInt(typed.message.issuedAt) },
  })
  await assertProblem(
    await bed.post(path, { announcement_id: draft.data.announcement_id, signature: forged }, { key }),
    403,
    'wallet_not_authorized',
  )
  const published = await bed.post(path, { announcement_id: draft.data.announcement_id, signature }, { key })
  const body: Json = await published.json()
  assert.equal(published.status, 201, JSON.stringify(body))
  const list: Json = await (await bed.get(`${path}?limit=5`, { key })).json()
  const seen = list.data.find((a: Json) => a.id === draft.data.announcement_id)
  assert.ok(seen, 'the read route serves the announcement')
  assert.deepEqual([seen.title, seen.author, seen.author_is_creator, seen.signature.value], ['Listing soon', t.creator, true, signature])
  await assertProblem(
    await bed.post(path, { announcement_id: draft.data.announcement_id, signature }, { key }),
    409,
    'announcement_id_conflict',
  )
  await assertProblem(await bed.post(path, { announcement_id: `0x${'ab'.repeat(32)}`, signature }, { key }), 404, 'not_found')
  await assertProblem(
    await bed.post(`${path}/prepare`, { author: stranger.address, title: 'x', body: 'y' }, { key }),
    403,
    'wallet_not_authorized',
  )
  await assertProblem(
    await bed.post(`/tokens/${bed.chain.chainId}/${lp.weth}/announcements/prepare`, { author: t.creator, title: 'x', body: 'y' }, { key }),
    404,
    'not_found',
  )
  await assertProblem(await bed.post(`${path}/prepare`, { author: t.creator, title: '', body: 'y' }, { key }), 400, 'invalid_parameter')
  await assertProblem(
    await bed.post(`${path}/prepare`, { author: t.creator, title: 'x', body: 'y', pinned: true }, { key }),
    400,
    'unknown_parameter',
  )
})
