import assert from 'node:assert/strict'
import { test } from 'vitest'
import { highestFeeCap } from './highestFeeCap.ts'

const RECIPIENT = '0x000000000000000000000000000000000000bEEF'

test('the highest cap among the keys that can be paid a fee; 0 when none can', () => {
  assert.equal(highestFeeCap({ keys: [{}, {}], feeRecipient: undefined, maxFeeBps: 300 }), 0, 'nowhere to pay a fee')
  assert.equal(highestFeeCap({ keys: [{}], feeRecipient: RECIPIENT, maxFeeBps: 300 }), 300)
  assert.equal(highestFeeCap({ keys: [{}, { maxFeeBps: 50 }], feeRecipient: RECIPIENT, maxFeeBps: 300 }), 300)
  assert.equal(highestFeeCap({ keys: [{ maxFeeBps: 50 }], feeRecipient: RECIPIENT, maxFeeBps: 300 }), 50, "the key's own cap, lower")
  assert.equal(
    highestFeeCap({ keys: [{}, { maxFeeBps: 900, feeRecipient: RECIPIENT }], feeRecipient: undefined, maxFeeBps: 300 }),
    900,
    'only the key with its own recipient can be paid',
  )
  assert.equal(highestFeeCap({ keys: [], feeRecipient: RECIPIENT, maxFeeBps: 300 }), 0)
})
