import assert from 'node:assert/strict'
import { test } from 'vitest'
import { jsonNestingDepth } from './parseJsonBody.ts'

test('jsonNestingDepth counts arrays and objects, ignores brackets in strings and escapes, stops early', () => {
  assert.equal(jsonNestingDepth('1', 16), 0)
  assert.equal(jsonNestingDepth('{}', 16), 1)
  assert.equal(jsonNestingDepth('{"a":[1,{"b":2}]}', 16), 3)
  assert.equal(jsonNestingDepth('{"a":"[[[{{{"}', 16), 1)
  assert.equal(jsonNestingDepth('{"a":"\\"[[["}', 16), 1)
  assert.equal(jsonNestingDepth('[[],[],[[]]]', 16), 3)
  assert.equal(jsonNestingDepth('['.repeat(1_000_000), 16), 17, 'stops at limit + 1')
})
