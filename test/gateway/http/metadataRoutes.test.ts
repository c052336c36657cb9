import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { type Hex, type PublicClient, toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { CID } from 'multiformats/cid'
import type { FsBlockstore } from 'blockstore-fs'
import { canonicalJson } from '../../../src/http/quotes/canonicalJson.ts'
import { computeDocumentCid } from '../../../src/gateway/documents/computeDocumentCid.ts'
import { createKuboPinner } from '../../../src/gateway/documents/createKuboPinner.ts'
import type { DocumentPinner } from '../../../src/gateway/documents/DocumentPinner.ts'
import { findKuboBinary, startKubo } from '../fixtures/startKubo.ts'
import { startKuboStandIn } from '../fixtures/startKuboStandIn.ts'
import type { PlanLimits } from '../../../src/gateway/limits/plans.ts'
import { assertProblem as checkProblem } from './assertProblem.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { signAndSend } from './signPlan.ts'

// The metadata routes through HTTP on a running gateway over the seeded launchpad: the admin
// renames a token on-chain and points it at a new metadata document (CID computed locally, kept
// by the gateway), each prepared, signed with the admin's own key, broadcast and seen on the read
// API; the deprecated combined and profile routes answer as the focused ones with Deprecation and
// Link; every code the routes raise.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const ROOMY: PlanLimits = { unitsPerMinute: 100_000, burstPerSecond: 100_000, daily: 10_000_000, monthly: 100_000_000, maxPage: 200 }
const actor = (i: number) => mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 20 + i })

let bed: GatewayTestbed
let client: PublicClient
let key: string
let chainId: number
const assertProblem = (res: Response, status: number, code: string) => checkProblem(res, status, code, bed.gateway.url)

beforeAll(async () => {
  bed = await startGatewayTestbed({})
  client = bed.devnet.publicClient as unknown as PublicClient
  chainId = bed.chain.chainId
  key = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['metadata:write', 'tokens:read'] })).key
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

/** The i-th seeded token, its admin (its creator) and the admin's own key. */
function tokenAndAdmin(i: number) {
  const lp = bed.devnet.market.launchpad!
  const t = lp.tokens[i]
  const index = lp.creators.findIndex((c) => c === t.creator)
  return { token: t.address, admin: t.creator, privateKey: toHex(actor(index).getHdKey().privateKey!) as Hex }
}

async function detailWhen(token: string, until: (d: Json) => boolean): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const d: Json = await (await bed.get(`/tokens/${chainId}/${token}`, { key })).json()
    if (until(d.data)) return d.data
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the read API did not show the update within 10 s')
}

describe('metadata: the happy paths end to end', () => {
  test('on-chain rename by the admin: prepare, sign, broadcast, the new name on the read API', async () => {
    const { token, admin, privateKey } = tokenAndAdmin(0)
    const res = await bed.post(
      `/tokens/${chainId}/${token}/metadata/onchain/prepare`,
      { actor: admin, name: 'Renamed By Gateway' },
      { key },
    )
    const plan: Json = await res.json()
    assert.equal(res.status, 200, JSON.stringify(plan))
    assert.deepEqual([plan.data.kind, plan.data.summary.field, plan.data.tx.to], ['metadata_onchain', 'name', token])
    assert.equal((await signAndSend({ client, privateKey, tx: plan.data.tx })).status, 'success')
    await detailWhen(token, (d) => d.name === 'Renamed By Gateway')
  })

  test('a metadata document: its CIDv1 computed locally, kept, the token pointed at it; the read API serves the document', async () => {
    const { token, admin, privateKey } = tokenAndAdmin(1)
    const document = {
      name: 'Doc Token',
      symbol: 'DOC',
      description: `updated ${randomBytes(4).toString('hex')}`,
      socials: [{ platform: 'x', url: 'https://x.com/doc' }],
    }
    const headers = { 'idempotency-key': `doc-${Date.now()}` }
    const res = await bed.post(`/tokens/${chainId}/${token}/metadata/document/prepare`, { actor: admin, document }, { key, headers })
    const text = await res.text()
    assert.equal(res.status, 200, text)
    const plan: Json = JSON.parse(text)
    const cid = computeDocumentCid(new TextEncoder().encode(canonicalJson(document)))
    assert.equal(plan.data.summary.cid, cid)
    assert.match(cid, /^bafkrei[a-z2-7]+$/)
    assert.equal(plan.data.summary.uri, `ipfs://${cid}`)
    // Pinned in the embedded blockstore (the default without IPFS_API_URL).
    assert.equal(plan.data.summary.pinned_to, 'embedded')
    const { blockstore } = bed.gateway.deps.ipfs as DocumentPinner & { blockstore: FsBlockstore }
    assert.equal(await blockstore.has(CID.parse(cid)), true)
    const replay = await bed.post(`/tokens/${chainId}/${token}/metadata/document/prepare`, { document, actor: admin }, { key, headers })
    assert.equal(await replay.text(), text)
    assert.equal((await signAndSend({ client, privateKey, tx: plan.data.tx })).status, 'success')
    const detail = await detailWhen(token, (d) => d.extra_metadata === `ipfs://${cid}`)
    assert.deepEqual(detail.metadata, document)
  })

  test('the deprecated combined and profile routes answer as the focused ones, with Deprecation and Link to them', async () => {
    const { token, admin } = tokenAndAdmin(2)
    const combined = await bed.post(
      `/tokens/${chainId}/${token}/metadata/prepare`,
      { actor: admin, operation: 'update_symbol', value: 'NEWSYM' },
      { key },
    )
    const body: Json = await combined.json()
    assert.equal(combined.status, 200, JSON.stringify(body))
    assert.deepEqual([body.data.kind, body.data.summary.field, body.data.summary.value], ['metadata_onchain', 'symbol', 'NEWSYM'])
    assert.ok(combined.headers.get('deprecation'))
    assert.match(
      combined.headers.get('link')!,
      new RegExp(`/tokens/${chainId}/${token.toLowerCase()}/metadata/onchain/prepare>; rel="successor-version"`, 'i'),
    )
    const document = { name: 'Profile', symbol: 'PRF' }
    const profile = await bed.post(
      `/tokens/${chainId}/${token}/metadata/profile/prepare`,
      { actor: admin, document },
      { key, headers: { 'idempotency-key': `p-${Date.now()}` } },
    )
    const profileBody: Json = await profile.json()
    assert.equal(profile.status, 200, JSON.stringify(profileBody))
    assert.equal(profileBody.data.kind, 'metadata_document')
    assert.match(profile.headers.get('link')!, /metadata\/document\/prepare>; rel="successor-version"/)
    const viaCombined = await bed.post(
      `/tokens/${chainId}/${token}/metadata/prepare`,
      { actor: admin, operation: 'update_profile', document },
      { key, headers: { 'idempotency-key': `c-${Date.now()}` } },
    )
    assert.equal(((await viaCombined.json()) as Json).data.summary.cid, profileBody.data.summary.cid)
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/prepare`, { actor: admin, operation: 'update_profile', document }, { key }),
      400,
      'missing_idempotency_key',
    )
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/prepare`, { actor: admin, operation: 'update_name' }, { key }),
      400,
      'incompatible_parameters',
    )
  })
})

describe('metadata: problems', () => {
  test('wallet_not_authorized, not_found, incompatible_parameters, missing_idempotency_key, unknown_parameter (no operation field), an invalid document', async () => {
    const { token } = tokenAndAdmin(3)
    const stranger = bed.devnet.market.accounts[0].address
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/onchain/prepare`, { actor: stranger, symbol: 'X' }, { key }),
      403,
      'wallet_not_authorized',
    )
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${bed.chain.wrappedNative}/metadata/onchain/prepare`, { actor: stranger, symbol: 'X' }, { key }),
      404,
      'not_found',
    )
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/onchain/prepare`, { actor: stranger, symbol: 'X', name: 'Y' }, { key }),
      400,
      'incompatible_parameters',
    )
    await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/onchain/prepare`, { actor: stranger }, { key }),
      400,
      'incompatible_parameters',
    )
    const doc = `/tokens/${chainId}/${token}/metadata/document/prepare`
    await assertProblem(
      await bed.post(doc, { actor: stranger, document: { name: 'A', symbol: 'B' } }, { key }),
      400,
      'missing_idempotency_key',
    )
    const headers = { 'idempotency-key': `bad-${Date.now()}` }
    await assertProblem(
      await bed.post(doc, { actor: stranger, operation: 'update_profile', document: { name: 'A', symbol: 'B' } }, { key, headers }),
      400,
      'unknown_parameter',
    )
    const invalid = await assertProblem(
      await bed.post(doc, { actor: stranger, document: { symbol: 'B', image: 7 } }, { key, headers }),
      400,
      'invalid_parameter',
    )
    assert.deepEqual(invalid.invalid_parameters.map((p: Json) => p.name).sort(), ['document.image', 'document.name'])
    await assertProblem(
      await bed.post(`/tokens/1/${token}/metadata/onchain/prepare`, { actor: stranger, symbol: 'X' }, { key }),
      422,
      'unsupported_chain',
    )
    // 4,096 characters the schema accepts, 8,192 bytes the token refuses: the simulation says so.
    const { admin } = tokenAndAdmin(3)
    const failed = await assertProblem(
      await bed.post(`/tokens/${chainId}/${token}/metadata/onchain/prepare`, { actor: admin, extra_metadata: 'é'.repeat(4096) }, { key }),
      422,
      'simulation_failed',
    )
    assert.match(failed.detail, /InvalidExtraMetadata/)
  })
})

describe('metadata: pinning to a Kubo node (IPFS_API_URL) through HTTP', () => {
  test('pinned to Kubo under the local CID; Kubo down 503, hung 504, another CID 502: no plan, and the key is free to retry', async () => {
    const kubo = await startKuboStandIn()
    const deps = bed.gateway.deps as { ipfs: DocumentPinner }
    const embedded = deps.ipfs
    deps.ipfs = createKuboPinner({ apiUrl: kubo.url, timeoutMs: 500 })
    const kuboKey = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['metadata:write'] })).key
    const prepare = (i: number, idempotencyKey: string) => {
      const { token, admin } = tokenAndAdmin(i)
      const document = { name: `Kubo ${i}`, symbol: 'KUBO', description: randomBytes(4).toString('hex') }
      const cid = computeDocumentCid(new TextEncoder().encode(canonicalJson(document)))
      const send = () =>
        bed.post(
          `/tokens/${chainId}/${token}/metadata/document/prepare`,
          { actor: admin, document },
          {
            key: kuboKey,
            headers: { 'idempotency-key': idempotencyKey },
          },
        )
      return { cid, send }
    }
    try {
      const ok = prepare(4, `kubo-ok-${Date.now()}`)
      const res = await ok.send()
      const plan: Json = await res.json()
      assert.equal(res.status, 200, JSON.stringify(plan))
      assert.deepEqual([plan.data.summary.cid, plan.data.summary.pinned_to], [ok.cid, 'kubo'])
      assert.ok(kubo.pins.has(ok.cid), 'Kubo holds the pin under the CID computed locally')

      for (const [i, mode, status, code] of [
        [5, 'hang', 504, 'upstream_timeout'],
        [6, 'wrong_cid', 502, 'upstream_error'],
        [7, 'error', 502, 'upstream_error'],
      ] as const) {
        kubo.mode = mode
        const failing = prepare(i, `kubo-${mode}-${Date.now()}`)
        const problem = await assertProblem(await failing.send(), status, code)
        assert.doesNotMatch(problem.detail, /127\.0\.0\.1|api\/v0/)
        // A 5xx frees the idempotency key: the same request runs again once the node is back.
        kubo.mode = 'ok'
        const retried = await failing.send()
        assert.equal(retried.status, 200, await retried.clone().text())
        assert.equal(((await retried.json()) as Json).data.summary.cid, failing.cid)
      }

      const down = prepare(8, `kubo-down-${Date.now()}`)
      await kubo.close()
      const refused = await down.send()
      assert.equal(refused.headers.get('retry-after'), '1')
      await assertProblem(refused, 503, 'temporarily_unavailable')
    } finally {
      deps.ipfs = embedded
      await kubo.close()
    }
  })
})

// Where Kubo is installed (scripts/install-kubo.sh): the same route pinning to a real daemon.
const kuboBin = findKuboBinary()
describe.skipIf(!kuboBin)('metadata: pinning to a real Kubo daemon through HTTP', () => {
  test('the document route pins to Kubo under the CID it computed; Kubo serves the bytes', async () => {
    const real = await startKubo(kuboBin!)
    const deps = bed.gateway.deps as { ipfs: DocumentPinner }
    const embedded = deps.ipfs
    deps.ipfs = createKuboPinner({ apiUrl: real.apiUrl, timeoutMs: 10_000 })
    try {
      const realKey = (await bed.key({ plan: 'partner', customLimits: ROOMY, scopes: ['metadata:write'] })).key
      const { token, admin } = tokenAndAdmin(9)
      const document = { name: 'Real Kubo', symbol: 'KUBO', description: randomBytes(8).toString('hex') }
      const res = await bed.post(
        `/tokens/${chainId}/${token}/metadata/document/prepare`,
        { actor: admin, document },
        {
          key: realKey,
          headers: { 'idempotency-key': `real-kubo-${Date.now()}` },
        },
      )
      const plan: Json = await res.json()
      assert.equal(res.status, 200, JSON.stringify(plan))
      const cid = computeDocumentCid(new TextEncoder().encode(canonicalJson(document)))
      assert.deepEqual([plan.data.summary.cid, plan.data.summary.pinned_to], [cid, 'kubo'])
      assert.match(real.ipfs('pin', 'ls', '--type=recursive', cid), new RegExp(`^${cid} recursive`))
      assert.deepEqual(JSON.parse(real.ipfs('cat', cid)), document)
    } finally {
      deps.ipfs = embedded
      await real.stop()
    }
  }, 60_000)
})
