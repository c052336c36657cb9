import assert from 'node:assert/strict'
import { test } from 'vitest'
import { HttpRequestError } from 'viem'
import { describeRefreshError } from './describeRefreshError.ts'

test('one line with the status and the node, without the request body, version and docs lines', () => {
  const error = new HttpRequestError({
    url: 'https://node.example/rpc',
    status: 503,
    body: { method: 'eth_getLogs', params: ['x'.repeat(50)] },
  })
  assert.equal(describeRefreshError(error), 'HTTP request failed.; Status: 503; URL: https://node.example/rpc')
  assert.equal(describeRefreshError(new Error('fetch failed')), 'fetch failed')
  assert.equal(describeRefreshError('plain'), 'plain')
  const long = describeRefreshError(new Error('y'.repeat(1000)))
  assert.equal(long.length, 401)
})
