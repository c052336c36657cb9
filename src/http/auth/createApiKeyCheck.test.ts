import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { createApiKeyCheck } from './createApiKeyCheck.ts'

test('the right key gives its SHA-256 id; missing, empty, wrong, prefix, suffix and array headers give undefined', () => {
  const keys = createApiKeyCheck({ keys: ['key-one-0123456789', 'key-two-0123456789'] })
  assert.equal(keys.check('key-two-0123456789'), createHash('sha256').update('key-two-0123456789').digest('hex'))
  for (const bad of [undefined, '', 'key-one-012345678', 'key-one-01234567890', 'KEY-ONE-0123456789', ['key-one-0123456789']]) assert.equal(keys.check(bad), undefined)
  assert.throws(() => createApiKeyCheck({ keys: [] }))
})
