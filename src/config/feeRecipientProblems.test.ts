import assert from 'node:assert/strict'
import { test } from 'vitest'
import { feeRecipientProblems } from './feeRecipientProblems.ts'

const ROUTER = '0xabcdef1111111111111111111111111111111111'
const OTHER = '0x000000000000000000000000000000000000bEEF'

test('FEE_RECIPIENT or a key recipient equal to the router (any letter case) is named; anyone else is fine', () => {
  assert.deepEqual(feeRecipientProblems({ router: ROUTER, feeRecipient: OTHER, apiKeys: [{ sha256: 'a', feeRecipient: OTHER }] }), [])
  assert.deepEqual(
    feeRecipientProblems({
      router: ROUTER,
      feeRecipient: ROUTER.toUpperCase().replace('0X', '0x'),
      apiKeys: [
        { sha256: 'a', source: 'API_KEYS_FILE line 3', feeRecipient: ROUTER },
        { sha256: 'b', feeRecipient: OTHER },
      ],
    }),
    [
      `FEE_RECIPIENT: must not be the router ${ROUTER} (the router refuses to pay itself)`,
      `API_KEYS_FILE line 3 feeRecipient: must not be the router ${ROUTER} (the router refuses to pay itself)`,
    ],
  )
})
