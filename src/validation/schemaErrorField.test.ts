import assert from 'node:assert/strict'
import { test } from 'vitest'
import { schemaErrorField } from './schemaErrorField.ts'

test('names the field of an Ajv error and of a TypeBox error alike', () => {
  assert.equal(schemaErrorField({ instancePath: '/permit/v', params: {} }), 'permit.v')
  assert.equal(schemaErrorField({ instancePath: '/permit', params: { missingProperty: 'r' } }), 'permit.r')
  assert.equal(schemaErrorField({ instancePath: '', params: { additionalProperty: 'extra' } }), 'extra')
  assert.equal(schemaErrorField({ instancePath: '', params: { requiredProperties: ['amountIn', 'tokenIn'] } }), 'amountIn')
  assert.equal(schemaErrorField({ instancePath: '', params: { additionalProperties: ['extra'] } }), 'extra')
  assert.equal(schemaErrorField({ instancePath: '/allowedDexes/0', params: { allowedValues: ['UNIV2'] } }), 'allowedDexes.0')
  assert.equal(schemaErrorField({ instancePath: '', params: {} }), 'body')
  assert.equal(schemaErrorField({ instancePath: '', params: {} }, 'request'), 'request')
})
