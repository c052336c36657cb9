import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'vitest'
import { createApiKeyCheck } from './createApiKeyCheck.ts'

test('the right key gives its SHA-256 id; missing, empty, wrong, prefix, suffix and array headers give undefined', () => {
  const keys = createApiKeyCheck({ keys: ['key-one-0123456789', 'key-two-0123456789'] })
  assert.equal(keys.check('key-two-0123456789'), createHash('sha256').update('key-two-0123456789').digest('hex'))
  for (const bad of [undefined, '', 'key-one-012345678', 'key-one-01234567890', 'KEY-ONE-0123456789', ['key-one-0123456789']])
    assert.equal(keys.check(bad), undefined)
  assert.throws(() => createApiKeyCheck({ keys: [] }))
})

test('entries are digests with settings; the settings follow the id; raw keys are hashed at once', () => {
  const recipient = '0x000000000000000000000000000000000000bEEF'
  const digest = createHash('sha256').update('partner-key-0123456789').digest('hex')
  const keys = createApiKeyCheck({
    keys: [
      'plain-key-0123456789',
      { sha256: digest.toUpperCase(), feeRecipient: recipient, maxFeeBps: 50, source: 'API_KEYS_FILE line 2' },
    ],
  })
  assert.equal(keys.size, 2)
  const id = keys.check('partner-key-0123456789')
  assert.equal(id, digest)
  assert.deepEqual(keys.settingsOf(id!), { feeRecipient: recipient, maxFeeBps: 50 })
  assert.deepEqual(keys.settingsOf(keys.check('plain-key-0123456789')!), {})
  assert.deepEqual(keys.settingsOf('unknown'), {})
  assert.throws(() => createApiKeyCheck({ keys: [{ sha256: 'not-hex', source: 'API_KEYS_FILE line 9' }] }), /API_KEYS_FILE line 9/)
})
