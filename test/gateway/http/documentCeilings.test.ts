import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, test } from 'vitest'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// The metadata-document ceilings and the per-actor ceiling of spec §8, under 100-way concurrency
// through HTTP on a running gateway: exactly the admitted count, the rest `quota_exceeded` naming
// the policy. Each case has its own client address (X-Forwarded-For, trusted here) and keys, so
// the shared per-source ceilings of one case do not spend another's. Admitted documents are
// really pinned (the embedded blockstore) and simulated; the load test of the same ceilings at
// fixed rates is bench/gatewayCeilings.bench.ts.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }

let bed: GatewayTestbed
let chainId: number
const newKey = async () => (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['metadata:write', 'announcements:write'] })).key

beforeAll(async () => {
  bed = await startGatewayTestbed({ trustProxy: true })
  chainId = bed.chain.chainId
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

/** The i-th seeded token and its admin (its creator). */
const tokenAt = (i: number) => bed.devnet.market.launchpad!.tokens[i]

const documentPrepare = (i: number, key: string, source: string) => {
  const t = tokenAt(i)
  return bed.post(
    `/tokens/${chainId}/${t.address}/metadata/document/prepare`,
    { actor: t.creator, document: { name: `Doc ${randomBytes(4).toString('hex')}`, symbol: 'DOC' } },
    { key, headers: { 'idempotency-key': randomBytes(16).toString('hex'), 'x-forwarded-for': source } },
  )
}

/** The answers of 100 concurrent requests: how many were admitted, and which policies refused the rest. */
async function burst(send: (i: number) => Promise<Response>) {
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => send(i)))
  const bodies: Json[] = await Promise.all(answers.map((r) => r.json()))
  const refused = bodies.filter((_, i) => answers[i].status === 429)
  for (const body of refused) assert.equal(body.code, 'quota_exceeded')
  const admitted = answers.filter((r) => r.status !== 429)
  return {
    admitted: admitted.length,
    statuses: [...new Set(admitted.map((r) => r.status))],
    refusedBy: new Set(refused.flatMap((b) => b.violated_policies as string[])),
    answers,
  }
}

describe('metadata documents (the IPFS route): per token, per key, the shared pinning workflow per source', () => {
  test('same token within a key: 2 a minute, exactly, of 100 concurrent (documents_per_token)', async () => {
    const key = await newKey()
    const { admitted, statuses, refusedBy } = await burst(() => documentPrepare(0, key, '10.23.0.1'))
    assert.equal(admitted, 2)
    assert.deepEqual(statuses, [200], 'the admitted ones are pinned and prepared')
    assert.deepEqual([...refusedBy], ['documents_per_token'])
  })

  test('per key: 10 a minute, exactly, of 100 concurrent over 20 tokens (documents_per_key)', async () => {
    const key = await newKey()
    const { admitted, statuses, refusedBy } = await burst((i) => documentPrepare(1 + (i % 20), key, '10.23.0.2'))
    assert.equal(admitted, 10)
    assert.deepEqual(statuses, [200])
    assert.ok(refusedBy.has('documents_per_key'), [...refusedBy].join())
  })

  test('pinning per source across keys: 20 a minute, exactly, of 100 concurrent from one address with 5 keys (pinning_per_source)', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, newKey))
    const { admitted, statuses, refusedBy } = await burst((i) => documentPrepare(i % 40, keys[i % 5], '10.23.0.3'))
    assert.equal(admitted, 20)
    assert.deepEqual(statuses, [200])
    assert.ok(refusedBy.has('pinning_per_source'), [...refusedBy].join())
  })
})

describe('announcement or metadata preparations, same creator or actor within a key: 20 a minute', () => {
  test('100 concurrent on-chain metadata and announcement prepares by one actor: exactly 20 admitted; another key is not charged for it', async () => {
    const key = await newKey()
    const t = tokenAt(30)
    const send = (i: number, k = key) =>
      i % 2 === 0
        ? bed.post(
            `/tokens/${chainId}/${t.address}/metadata/onchain/prepare`,
            { actor: t.creator, name: `Renamed ${i}` },
            { key: k, headers: { 'x-forwarded-for': '10.23.0.4' } },
          )
        : bed.post(
            `/tokens/${chainId}/${t.address}/announcements/prepare`,
            { author: t.creator, title: `News ${i}`, body: 'Listed.' },
            { key: k, headers: { 'x-forwarded-for': '10.23.0.4' } },
          )
    const { admitted, statuses, refusedBy } = await burst(send)
    assert.equal(admitted, 20)
    assert.deepEqual(statuses, [200])
    assert.deepEqual([...refusedBy], ['preparations_per_actor'])
    const other = await newKey()
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i, other)))
    assert.deepEqual([...new Set(again.map((r) => r.status))], [200])
  })
})
