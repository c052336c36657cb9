import assert from 'node:assert/strict'
import { test } from 'vitest'
import { routeUnits } from './routeUnits.ts'

test('paging scales cost as spec §8 says: a token list of 100 costs 8, a 200-holder page 40, ten claims 30', () => {
  const list = { base: 2, rowsPerStep: 25 }
  assert.equal(routeUnits({ weight: list, limit: 100 }), 8)
  assert.equal(routeUnits({ weight: list, limit: 25 }), 2)
  assert.equal(routeUnits({ weight: list, limit: 1 }), 2)
  assert.equal(routeUnits({ weight: list, limit: 26 }), 4)
  assert.equal(routeUnits({ weight: { base: 10, rowsPerStep: 50 }, limit: 200 }), 40)
  assert.equal(routeUnits({ weight: { base: 3, rowsPerStep: 1 }, limit: 10 }), 30)
  assert.equal(routeUnits({ weight: { base: 3, rowsPerStep: 25 }, limit: 100 }), 12)
  assert.equal(routeUnits({ weight: { base: 2 } }), 2)
})
