import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createSolveQueue } from './createSolveQueue.ts'

/** A call that ends when told: `end(value)` resolves it, `fail(error)` rejects it. */
function pending<T>() {
  let end!: (value: T) => void
  let fail!: (error: Error) => void
  const promise = new Promise<T>((resolve, reject) => {
    end = resolve
    fail = reject
  })
  return { promise, end, fail }
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve()
}

test('the same key waits for the call in flight; another key does not; a failure ahead is not the follower’s', async () => {
  const queue = createSolveQueue()
  const started: string[] = []
  const first = pending<string>()
  const a1 = queue.afterSame('a', 10_000, () => (started.push('a1'), first.promise))
  const a2 = queue.afterSame('a', 10_000, async () => (started.push('a2'), 'a2'))
  const b1 = queue.afterSame('b', 10_000, async () => (started.push('b1'), 'b1'))
  await turns()
  assert.deepEqual(started, ['a1', 'b1'], 'a2 waits for a1; b1 runs at once')
  assert.equal(await b1, 'b1')
  first.fail(new Error('a1 failed'))
  await assert.rejects(a1, /a1 failed/)
  assert.equal(await a2, 'a2', 'a2 ran once a1 ended, with its own answer')
  assert.deepEqual(started, ['a1', 'b1', 'a2'])
  await turns()
  assert.equal(queue.inFlight(), 0, 'nothing left in flight')
})

test('a follower waits no longer than it is told', async () => {
  const queue = createSolveQueue()
  const stuck = pending<string>()
  void queue.afterSame('a', 10_000, () => stuck.promise)
  const startedAt = performance.now()
  assert.equal(await queue.afterSame('a', 30, async () => 'mine'), 'mine')
  const waitedMs = performance.now() - startedAt
  assert.ok(waitedMs >= 25 && waitedMs < 5_000, `waited ${waitedMs} ms`)
  assert.equal(await queue.afterSame('a', 0, async () => 'at once'), 'at once', 'no time left: no wait')
  stuck.end('late')
})
