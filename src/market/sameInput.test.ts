import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { PoolInput } from '../../bindings/types.ts'
import { sameInput } from './sameInput.ts'

const pool: PoolInput = {
  id: '0x00000000000000000000000000000000000000a1',
  dex: 'UNIV2',
  tokens: ['0x00000000000000000000000000000000000000b1', '0x00000000000000000000000000000000000000b2'],
  state: { model: 'constant_product', reserves: ['1000', '2000'] },
}

test('sameInput: an equal copy is the same; any field changed, or a pool not held, is not', () => {
  assert.equal(sameInput(pool, structuredClone(pool)), true)
  assert.equal(sameInput(pool, pool), true)
  assert.equal(sameInput(undefined, pool), false)
  assert.equal(sameInput(pool, { ...pool, state: { model: 'constant_product', reserves: ['1000', '2001'] } }), false)
  assert.equal(sameInput(pool, { ...pool, tokens: [pool.tokens[1], pool.tokens[0]] }), false)
  assert.equal(sameInput(pool, { ...pool, id: '0x00000000000000000000000000000000000000a2' }), false)
})
