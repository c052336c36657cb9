import assert from 'node:assert/strict'
import { test } from 'vitest'
import { extractRawJsonMember } from './extractRawJsonMember.ts'

test('the member comes back byte for byte: integers past 2^53, escapes, nesting, whitespace', () => {
  const summary = '{"a":12345678901234567891, "s":"q\\"}x{", "n":[1,{"b":null}],"f":-1.5e-3}'
  const text = ` { "code" : 0, "data" : { "other": [ "}" ], "routeSummary" : ${summary} , "z": true } }`
  assert.equal(extractRawJsonMember(text, ['data', 'routeSummary']), summary)
  assert.equal(extractRawJsonMember(text, ['code']), '0')
  assert.equal(extractRawJsonMember('{"priceRoute":{"x":1}}', ['priceRoute']), '{"x":1}')
})

test('absent members and malformed documents give undefined, never a guess', () => {
  assert.equal(extractRawJsonMember('{"data":{}}', ['data', 'routeSummary']), undefined)
  assert.equal(extractRawJsonMember('{"data":[1]}', ['data', 'x']), undefined)
  assert.equal(extractRawJsonMember('{"data":{"routeSummary":{"a":1}', ['data', 'routeSummary']), undefined)
  assert.equal(extractRawJsonMember('not json', ['data']), undefined)
  assert.equal(extractRawJsonMember('', ['data']), undefined)
  assert.equal(extractRawJsonMember('{"data":{"routeSummary":"unterminated}}', ['data', 'routeSummary']), undefined)
})
