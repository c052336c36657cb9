import assert from 'node:assert/strict'
import { test } from 'vitest'
import { isNativeSentinel } from './isNativeSentinel.ts'

test('both spec sentinels in any case are native; tokens are not', () => {
  assert.equal(isNativeSentinel('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'), true)
  assert.equal(isNativeSentinel('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'), true)
  assert.equal(isNativeSentinel('0x0000000000000000000000000000000000000000'), true)
  assert.equal(isNativeSentinel('0x4200000000000000000000000000000000000006'), false)
  assert.equal(isNativeSentinel('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEe0'), false)
})
