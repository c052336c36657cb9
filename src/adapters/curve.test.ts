import assert from 'node:assert/strict'
import { test } from 'vitest'
import { curve } from './curve.ts'

// The Curve adapter's leg encoding, without a chain (reading pools is held to the chain by
// test/e2e/backToBackTrades.test.ts, CURVE over HTTP).
const POOL = '0x5f78e88fc06e94001ace69277365c318b8be7523'
const [A, B, C] = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000b1',
  '0x00000000000000000000000000000000000000c1',
] as const

test("a curve leg names the pool and the leg's tokens' indexes in its coins, whatever their case", () => {
  const ref = { id: POOL, dex: 'CURVE' as const, emitter: POOL as `0x${string}`, coins: [A, B, C] as `0x${string}`[] }
  assert.deepEqual(curve.encodeLeg(ref, { tokenIn: C.toUpperCase().replace('0X', '0x') as `0x${string}`, tokenOut: A }), {
    kind: 'curve',
    pool: '0x5F78E88FC06e94001AcE69277365c318B8be7523',
    i: 2,
    j: 0,
  })
  assert.throws(
    () => curve.encodeLeg(ref, { tokenIn: A, tokenOut: '0x00000000000000000000000000000000000000d1' }),
    /not a pair of its coins/,
  )
  assert.throws(() => curve.encodeLeg({ ...ref, coins: undefined }, { tokenIn: A, tokenOut: B }), /read the pool first/)
})
