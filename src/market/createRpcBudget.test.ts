import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createRpcBudget } from './createRpcBudget.ts'

test('calls start evenly spaced at the rate, never more in flight than the bound, in the order they asked', async () => {
  const budget = createRpcBudget({ callsPerSecond: 100, maxInFlight: 2 })
  let inFlight = 0
  let peak = 0
  const startedAt: number[] = []
  const order: number[] = []
  const began = performance.now()
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      budget(async () => {
        startedAt.push(performance.now() - began)
        order.push(i)
        peak = Math.max(peak, ++inFlight)
        await new Promise((resolve) => setTimeout(resolve, 15))
        inFlight--
      }),
    ),
  )
  assert.equal(peak, 2)
  assert.deepEqual(
    order,
    Array.from({ length: 20 }, (_, i) => i),
  )
  // 20 starts at 100 per second: the last starts 190 ms after the first at the earliest.
  assert.ok(startedAt[19] - startedAt[0] >= 185, `the last call started ${startedAt[19] - startedAt[0]} ms after the first`)
})

test('a failed call frees its slot; no rate bound at 0', async () => {
  const budget = createRpcBudget({ callsPerSecond: 0, maxInFlight: 1 })
  await assert.rejects(
    budget(async () => {
      throw new Error('refused')
    }),
    /refused/,
  )
  assert.equal(await budget(async () => 7), 7)
  assert.throws(() => createRpcBudget({ callsPerSecond: 1, maxInFlight: 0 }), /maxInFlight/)
})
