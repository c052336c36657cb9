import assert from 'node:assert/strict'
import { createHash, createHmac } from 'node:crypto'
import { test } from 'vitest'
import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'
import { canonicalJson } from './canonicalJson.ts'
import { computeQuoteId } from './computeQuoteId.ts'
import { createMemoryQuoteStore } from './createQuoteStore.ts'

test('canonicalJson sorts keys at every level, keeps array order, drops undefined members', () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }, 'x'], u: undefined, n: null }), '{"a":[{"c":3,"d":2},"x"],"b":1,"n":null}')
  assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }))
  assert.equal(canonicalJson('é"'), JSON.stringify('é"'))
  assert.throws(() => canonicalJson({ a: 1n }), TypeError)
})

test('quoteId: hex SHA-256 of the canonical payload, or HMAC-SHA256 with the signing key; binds the key id', () => {
  const payload = { apiKeyId: 'ab'.repeat(32), expiresAt: 1_700_000_000_000, routePlan: { z: 1, a: '2' } }
  const canonical = `{"apiKeyId":"${'ab'.repeat(32)}","expiresAt":1700000000000,"routePlan":{"a":"2","z":1}}`
  const { quoteId, canonical: c } = computeQuoteId({ payload })
  assert.equal(c, canonical)
  assert.equal(quoteId, createHash('sha256').update(canonical).digest('hex'))
  assert.match(quoteId, /^[0-9a-f]{64}$/)
  assert.equal(
    computeQuoteId({ payload, signingKey: 'k'.repeat(16) }).quoteId,
    createHmac('sha256', 'k'.repeat(16)).update(canonical).digest('hex'),
  )
  assert.notEqual(computeQuoteId({ payload: { ...payload, apiKeyId: 'cd'.repeat(32) } }).quoteId, quoteId)
  // The fee recipient the quote was priced for is covered too (left out when there is none).
  const withRecipient = computeQuoteId({ payload: { ...payload, feeRecipient: '0x000000000000000000000000000000000000F00D' } })
  assert.equal(
    withRecipient.canonical,
    canonical.replace(
      '"expiresAt":1700000000000,',
      '"expiresAt":1700000000000,"feeRecipient":"0x000000000000000000000000000000000000F00D",',
    ),
  )
  assert.notEqual(withRecipient.quoteId, quoteId)
})

test('quote store: expires exactly at expiresAt, is scoped to its key, bounded by count and bytes, reads do not consume', async () => {
  let now = Date.now()
  const store = createMemoryQuoteStore({ maxEntries: 3, maxBytes: 1000, now: () => now })
  const plan = {} as QuoteRoutePlan
  await store.put({ quoteId: 'q1', apiKeyId: 'A', routePlan: plan, expiresAt: now + 1000 }, 100)
  assert.ok(await store.get('q1', 'A'))
  assert.ok(await store.get('q1', 'A'), 'a second read still finds it')
  assert.equal(await store.get('q1', 'B'), undefined, "another key's quote is invisible")
  now += 999
  assert.ok(await store.get('q1', 'A'))
  now += 1
  assert.equal(await store.get('q1', 'A'), undefined, 'gone at expiresAt')
  await store.put({ quoteId: 'old', apiKeyId: 'A', routePlan: plan, expiresAt: now - 1 }, 10)
  assert.equal(await store.get('old', 'A'), undefined, 'an already expired quote is not stored')
  for (const id of ['a', 'b', 'c', 'd']) await store.put({ quoteId: id, apiKeyId: 'A', routePlan: plan, expiresAt: now + 60_000 }, 10)
  assert.equal(store.size(), 3)
  assert.equal(await store.get('a', 'A'), undefined, 'the least recently used one went (count bound)')
  await store.put({ quoteId: 'big', apiKeyId: 'A', routePlan: plan, expiresAt: now + 60_000 }, 990)
  assert.ok(await store.get('big', 'A'))
  assert.equal(await store.get('b', 'A'), undefined, 'the byte bound evicted the least recently used')
  assert.ok(store.size() <= 2, 'at most 1000 bytes kept: big (990) and one 10-byte quote')
})
