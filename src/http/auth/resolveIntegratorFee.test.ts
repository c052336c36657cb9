import assert from 'node:assert/strict'
import { test } from 'vitest'
import { BadRequestError } from '../errors.ts'
import { resolveIntegratorFee } from './resolveIntegratorFee.ts'

const DEFAULT = '0x00000000000000000000000000000000000000aa'
const OWN = '0x000000000000000000000000000000000000bEEF'

test("the key's recipient and cap win over the service defaults; at the cap passes, above is a 400 naming feeBps and the cap", () => {
  const service = { feeRecipient: DEFAULT as `0x${string}`, maxFeeBps: 300 }
  assert.equal(resolveIntegratorFee({ ...service, feeBps: 300, key: {} }), DEFAULT)
  assert.equal(resolveIntegratorFee({ ...service, feeBps: 50, key: { feeRecipient: OWN, maxFeeBps: 50 } }), OWN)
  assert.equal(resolveIntegratorFee({ ...service, feeBps: 0, key: { feeRecipient: OWN } }), undefined)
  assert.equal(resolveIntegratorFee({ ...service, feeBps: undefined, key: {} }), undefined)
  // A key may be allowed more than the default, or nothing at all.
  assert.equal(resolveIntegratorFee({ ...service, feeBps: 1_000, key: { maxFeeBps: 1_000 } }), DEFAULT)
  const refused = (feeBps: number, key: { maxFeeBps?: number }, message: RegExp) => {
    assert.throws(
      () => resolveIntegratorFee({ ...service, feeBps, key }),
      (e: unknown) => e instanceof BadRequestError && e.statusCode === 400 && message.test(e.message),
    )
  }
  refused(301, {}, /^feeBps: 301 is above the maximum of 300 bps for this API key \(MAX_FEE_BPS\)$/)
  refused(51, { maxFeeBps: 50 }, /^feeBps: 51 is above the maximum of 50 bps for this API key \(this key's maxFeeBps\)$/)
  refused(1, { maxFeeBps: 0 }, /above the maximum of 0 bps/)
  refused(10_000, {}, /a 100 % fee would leave the recipient nothing$/)
})

test("a fee with nowhere to go is a 400 naming feeBps; a key's own recipient is enough", () => {
  assert.throws(
    () => resolveIntegratorFee({ feeBps: 10, key: {}, feeRecipient: undefined, maxFeeBps: 300 }),
    /^BadRequestError: feeBps: this server has no fee recipient configured/,
  )
  assert.equal(resolveIntegratorFee({ feeBps: 10, key: { feeRecipient: OWN }, feeRecipient: undefined, maxFeeBps: 300 }), OWN)
})
