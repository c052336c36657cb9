import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'vitest'
import { parseApiKeyFile } from './parseApiKeyFile.ts'

// The operator-facing cases (every bad line, no key in a message) are in loadConfig.test.ts.

test('the documented example: CRLF, tabs, comments, inline comments; digests only, the line as source', () => {
  const text = '# key  settings\r\n\r\npartner-a-2b7e151628aed2a6abf7\tmaxFeeBps=50  # partner A\r\n  plain-key-0123456789abcdef\r\n'
  const { entries, problems } = parseApiKeyFile({ text, source: 'API_KEYS_FILE' })
  assert.deepEqual(problems, [])
  assert.deepEqual(entries, [
    { sha256: createHash('sha256').update('partner-a-2b7e151628aed2a6abf7').digest('hex'), source: 'API_KEYS_FILE line 3', maxFeeBps: 50 },
    { sha256: createHash('sha256').update('plain-key-0123456789abcdef').digest('hex'), source: 'API_KEYS_FILE line 4' },
  ])
})
