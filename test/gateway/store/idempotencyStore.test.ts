import assert from 'node:assert/strict'
import { describe, test } from 'vitest'
import {
  createIdempotencyStore,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
} from '../../../src/gateway/idempotency/createIdempotencyStore.ts'
import { testEngines } from '../fixtures/testDatabases.ts'

// The idempotency entries of spec §3 on both engines, on a clock the test moves: one claim among
// 100 concurrent identical requests, replay of the kept response, other input refused, a lease
// that frees a key a dead process held, and 24 hours of retention.

const response = {
  status: 201,
  headers: { 'content-type': 'application/json; charset=utf-8', link: '<x>; rel="self"' },
  body: '{"data":{"plan_id":"p1"}}',
}

for (const engine of testEngines) {
  describe(engine.name, () => {
    test('100 concurrent claims of one key: exactly one runs, the others are in progress; then every one replays the response', async () => {
      const db = await engine.open()
      try {
        const store = createIdempotencyStore({ db })
        const claims = await Promise.all(
          Array.from({ length: 100 }, () => store.claim({ keyPrefix: 'aaaa', key: 'k1', fingerprint: 'f1' })),
        )
        const claimed = claims.filter((c) => c.kind === 'claimed')
        assert.equal(claimed.length, 1)
        assert.equal(claims.filter((c) => c.kind === 'in_progress').length, 99)
        await store.complete({ keyPrefix: 'aaaa', key: 'k1', leaseId: (claimed[0] as { leaseId: string }).leaseId, response })
        const replays = await Promise.all(
          Array.from({ length: 100 }, () => store.claim({ keyPrefix: 'aaaa', key: 'k1', fingerprint: 'f1' })),
        )
        for (const r of replays) assert.deepEqual(r, { kind: 'replay', response })
        assert.deepEqual(await store.claim({ keyPrefix: 'aaaa', key: 'k1', fingerprint: 'f2' }), { kind: 'reused' })
        // Another API key uses the same value independently (spec §8).
        assert.equal((await store.claim({ keyPrefix: 'bbbb', key: 'k1', fingerprint: 'f2' })).kind, 'claimed')
      } finally {
        await db.close()
      }
    })

    test('a lease ends: a key a dead process held is claimed again by the same request; other input is still refused; abandon frees at once', async () => {
      const db = await engine.open()
      try {
        let t = 1_800_000_000_000
        const store = createIdempotencyStore({ db, now: () => t })
        const first = await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })
        assert.equal(first.kind, 'claimed')
        t += IDEMPOTENCY_LEASE_MS - 1
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })).kind, 'in_progress')
        t += 1
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'other' })).kind, 'reused')
        const second = await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })
        assert.equal(second.kind, 'claimed')
        // The dead process's late completion is ignored: the lease is no longer its own.
        await store.complete({ keyPrefix: 'aaaa', key: 'k', leaseId: (first as { leaseId: string }).leaseId, response })
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })).kind, 'in_progress')
        await store.abandon({ keyPrefix: 'aaaa', key: 'k', leaseId: (second as { leaseId: string }).leaseId })
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })).kind, 'claimed')
      } finally {
        await db.close()
      }
    })

    test('kept 24 hours: then the key is free for any input, and purged', async () => {
      const db = await engine.open()
      try {
        let t = 1_800_000_000_000
        const store = createIdempotencyStore({ db, now: () => t })
        const c = await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })
        await store.complete({ keyPrefix: 'aaaa', key: 'k', leaseId: (c as { leaseId: string }).leaseId, response })
        t += IDEMPOTENCY_RETENTION_MS - 1
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'f' })).kind, 'replay')
        assert.equal(await store.purge(), 0)
        t += 1
        assert.equal(await store.purge(), 1)
        assert.equal((await store.claim({ keyPrefix: 'aaaa', key: 'k', fingerprint: 'new' })).kind, 'claimed')
      } finally {
        await db.close()
      }
    })
  })
}
