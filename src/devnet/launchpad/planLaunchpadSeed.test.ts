import assert from 'node:assert/strict'
import { test } from 'vitest'
import { planLaunchpadSeed, SEED_CREATORS, SEED_HOURS } from './planLaunchpadSeed.ts'

test('the plan: forty launches over the week by all creators, vesting at every stage when the week ends, same seed same plan', () => {
  const { launches } = planLaunchpadSeed({ seed: 8453 })
  assert.equal(launches.length, 40)
  assert.deepEqual(new Set(launches.map((l) => l.creator)).size, SEED_CREATORS)
  assert.ok(launches.every((l) => l.hour >= 0 && l.hour < SEED_HOURS))
  assert.equal(new Set(launches.map((l) => l.salt)).size, 40)
  const end = SEED_HOURS * 3600
  const stageAtEnd = new Set<string>()
  for (const l of launches) {
    assert.equal(
      l.recipients.reduce((s, r) => s + r.bps, 0),
      10_000,
    )
    const v = l.vesting
    if (!v) continue
    const start = l.hour * 3600
    const lockupEnd = start + v.lockupSeconds
    const vestingEnd = lockupEnd + v.vestingSeconds
    const stage =
      end < lockupEnd
        ? 'locked'
        : end < vestingEnd
          ? v.claimHours.length
            ? 'partly_claimed'
            : 'vesting'
          : v.claimHours.length
            ? 'claimed'
            : 'vested'
    assert.equal(stage, v.stage, `${l.symbol}`)
    // Every claim falls after the lockup and before the week ends.
    for (const c of v.claimHours) assert.ok(c * 3600 > lockupEnd && c < SEED_HOURS, `${l.symbol} claims at ${c}`)
    stageAtEnd.add(stage)
  }
  assert.deepEqual([...stageAtEnd].sort(), ['claimed', 'locked', 'partly_claimed', 'vested', 'vesting'])
  assert.deepEqual(planLaunchpadSeed({ seed: 8453 }), { launches })
})
