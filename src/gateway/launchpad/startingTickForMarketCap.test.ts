import assert from 'node:assert/strict'
import { test } from 'vitest'
import { LAUNCH_TICK_SPACING, startingTickForMarketCap } from './startingTickForMarketCap.ts'

test('the starting tick prices the supply at or just below the market cap asked for', () => {
  for (const capEth of [1n, 3n, 10n, 42n, 1000n]) {
    const marketCapRaw = capEth * 10n ** 18n
    const tick = startingTickForMarketCap({ marketCapRaw })
    assert.ok(Number.isInteger(tick / LAUNCH_TICK_SPACING))
    const capAt = (t: number) => 1e9 * 1.0001 ** t // in ETH: supply 1e9 tokens × price per token
    assert.ok(capAt(tick) <= Number(capEth) * (1 + 1e-9), `cap at ${tick} above ${capEth}`)
    assert.ok(capAt(tick + LAUNCH_TICK_SPACING) > Number(capEth), `tick ${tick} not the highest below ${capEth}`)
  }
  assert.equal(startingTickForMarketCap({ marketCapRaw: 10n * 10n ** 18n }), -184400)
  assert.throws(() => startingTickForMarketCap({ marketCapRaw: 0n }), RangeError)
})
