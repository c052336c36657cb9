import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { perPoolList } from './perPoolList.ts'

test('derives once per pool list, again for another list', () => {
  let calls = 0
  const countOf = perPoolList((pools) => {
    calls++
    return pools.length
  })
  const first: readonly PoolSnapshot[] = []
  const second: readonly PoolSnapshot[] = []
  assert.equal(countOf(first), 0)
  assert.equal(countOf(first), 0)
  assert.equal(calls, 1)
  countOf(second)
  assert.equal(calls, 2)
})
