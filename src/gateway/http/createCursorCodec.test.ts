import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { test } from 'vitest'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import { createCursorCodec } from './createCursorCodec.ts'

const codeOf = (fn: () => unknown) => {
  try {
    fn()
  } catch (error) {
    return error instanceof GatewayProblem ? error.code : String(error)
  }
  return 'ok'
}

test('cursors round-trip; another route or filter set is a mismatch; altered, foreign or malformed ones are invalid', () => {
  const codec = createCursorCodec({ secret: randomBytes(32) })
  const cursor = codec.encode({
    route: 'tokens.list',
    filters: { sort: 'newest', chain: null },
    version: 3,
    position: [1700000000, 8453, '0xabc'],
  })
  assert.deepEqual(codec.decode(cursor, { route: 'tokens.list', filters: { chain: null, sort: 'newest' } }), {
    version: 3,
    position: [1700000000, 8453, '0xabc'],
  })
  assert.equal(
    codeOf(() => codec.decode(cursor, { route: 'tokens.search', filters: { sort: 'newest', chain: null } })),
    'cursor_filter_mismatch',
  )
  assert.equal(
    codeOf(() => codec.decode(cursor, { route: 'tokens.list', filters: { sort: 'oldest', chain: null } })),
    'cursor_filter_mismatch',
  )
  const [payload, tag] = cursor.split('.')
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), v: 4 })).toString('base64url')
  assert.equal(
    codeOf(() => codec.decode(`${forged}.${tag}`, { route: 'tokens.list', filters: { sort: 'newest', chain: null } })),
    'invalid_parameter',
  )
  assert.equal(
    codeOf(() =>
      createCursorCodec({ secret: randomBytes(32) }).decode(cursor, { route: 'tokens.list', filters: { sort: 'newest', chain: null } }),
    ),
    'invalid_parameter',
  )
  for (const junk of ['', 'abc', 'a.b.c', `${payload}.`, '.'.repeat(600)])
    assert.equal(
      codeOf(() => codec.decode(junk, { route: 'tokens.list', filters: {} })),
      'invalid_parameter',
      junk,
    )
})
