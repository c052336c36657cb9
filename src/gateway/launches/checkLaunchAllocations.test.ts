import assert from 'node:assert/strict'
import { test } from 'vitest'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { checkLaunchAllocations, type LaunchAllocations } from './checkLaunchAllocations.ts'

const a = '0x1111111111111111111111111111111111111111'
const b = '0x2222222222222222222222222222222222222222'
const c = '0x3333333333333333333333333333333333333333'
const base: LaunchAllocations = { creator: a, rewards: [{ recipient: a, bps: 10_000 }], reserved: [c] }
const codeOf = (input: Partial<LaunchAllocations>) => {
  try {
    checkLaunchAllocations({ ...base, ...input })
    return 'ok'
  } catch (error) {
    return `${(error as GatewayProblem).code} ${(error as GatewayProblem).details.invalidParameters?.[0].name}`
  }
}

test("allocations: the factory's bounds, each with its code and field", () => {
  assert.equal(codeOf({}), 'ok')
  assert.equal(codeOf({ rewards: [] }), 'invalid_allocation rewards')
  assert.equal(
    codeOf({
      rewards: Array.from({ length: 8 }, (_, i) => ({
        recipient: `0x${String(i + 1).repeat(40)}`.slice(0, 42) as `0x${string}`,
        bps: 1250,
      })),
    }),
    'invalid_allocation rewards',
  )
  assert.equal(
    codeOf({
      rewards: [
        { recipient: a, bps: 5_000 },
        { recipient: b, bps: 4_999 },
      ],
    }),
    'invalid_allocation rewards',
  )
  assert.equal(
    codeOf({
      rewards: [
        { recipient: a, bps: 5_000 },
        { recipient: a, bps: 5_000 },
      ],
    }),
    'invalid_allocation rewards.1.recipient',
  )
  assert.equal(
    codeOf({
      rewards: [
        { recipient: a, bps: 10_000 },
        { recipient: b, bps: 0 },
      ],
    }),
    'invalid_allocation rewards.1.bps',
  )
  assert.equal(codeOf({ vesting: { beneficiary: b, bps: 3_001, lockup_seconds: 1, vesting_seconds: 1 } }), 'invalid_allocation vesting.bps')
  assert.equal(codeOf({ vesting: { beneficiary: b, bps: 3_000, lockup_seconds: 0, vesting_seconds: 0 } }), 'invalid_vesting vesting')
  assert.equal(
    codeOf({ vesting: { beneficiary: b, bps: 100, lockup_seconds: 4 * 365 * 86_400 + 1, vesting_seconds: 0 } }),
    'invalid_vesting vesting.lockup_seconds',
  )
  assert.equal(
    codeOf({ vesting: { beneficiary: '0x0000000000000000000000000000000000000000', bps: 100, lockup_seconds: 1, vesting_seconds: 0 } }),
    'invalid_vesting vesting.beneficiary',
  )
  assert.equal(codeOf({ vesting: { beneficiary: b, bps: 3_000, lockup_seconds: 86_400, vesting_seconds: 4 * 365 * 86_400 } }), 'ok')
  assert.equal(codeOf({ referrer: c }), 'invalid_referrer referrer')
  assert.equal(codeOf({ referrer: a }), 'invalid_referrer referrer')
  assert.equal(
    codeOf({
      referrer: b,
      rewards: [
        { recipient: a, bps: 5_000 },
        { recipient: b, bps: 5_000 },
      ],
    }),
    'invalid_referrer referrer',
  )
  assert.equal(codeOf({ referrer: b }), 'ok')
})
