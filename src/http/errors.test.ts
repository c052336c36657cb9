import assert from 'node:assert/strict'
import { test } from 'vitest'
import Fastify from 'fastify'
import { RouterEncodingError } from '../router/RouterEncodingError.ts'
import { describeValidationError, handleError } from './errors.ts'

/** A bare app whose one route throws `error`, with the given router field names. */
async function answerTo(error: Error, routerFields?: Record<string, string>) {
  const app = Fastify({ logger: false })
  app.setErrorHandler(handleError)
  app.post('/x', { config: { routerFields } }, async () => {
    throw error
  })
  const res = await app.inject({ method: 'POST', url: '/x', payload: {} })
  await app.close()
  return { status: res.statusCode, body: res.json() }
}

test("a RouterEncodingError on a request field is a 400 with the request's name for it", async () => {
  const fields = { recipient: 'user', permit: 'permit' }
  assert.deepEqual(await answerTo(new RouterEncodingError({ path: 'permit.r', message: 'must be 32 bytes of hex (bytes32)' }), fields), {
    status: 400,
    body: { error: 'permit.r: must be 32 bytes of hex (bytes32)' },
  })
  assert.deepEqual(await answerTo(new RouterEncodingError({ path: 'recipient', message: 'not an address: 0x12' }), fields), {
    status: 400,
    body: { error: 'user: not an address: 0x12' },
  })
  assert.deepEqual(await answerTo(new RouterEncodingError({ path: 'recipient', message: 'x' }), { recipient: 'taker' }), {
    status: 400,
    body: { error: 'taker: x' },
  })
})

test('a RouterEncodingError on anything else came from our own plan or configuration: a 500 that says nothing', async () => {
  const fields = { recipient: 'user', permit: 'permit' }
  for (const path of ['routes[0].legs[1].minOut', 'deadline', 'feeRecipient', 'permitted', 'constructor', '__proto__']) {
    assert.deepEqual(
      await answerTo(new RouterEncodingError({ path, message: 'secret detail' }), fields),
      { status: 500, body: { error: 'internal error' } },
      path,
    )
  }
  assert.deepEqual(
    await answerTo(new RouterEncodingError({ path: 'permit.r', message: 'x' })),
    { status: 500, body: { error: 'internal error' } },
    'a route without routerFields',
  )
})

test('validation messages name the field; a refused combination and a long pattern answer with their description', () => {
  assert.equal(
    describeValidationError({ instancePath: '/permit', keyword: 'required', params: { missingProperty: 's' } }),
    'permit.s: is required',
  )
  assert.equal(
    describeValidationError({ instancePath: '', keyword: 'not', params: {}, schema: { description: 'gasPriceWei: cannot be combined' } }),
    'gasPriceWei: cannot be combined',
  )
  assert.equal(
    describeValidationError({ instancePath: '', keyword: 'not', params: {}, message: 'must NOT be valid', schema: {} }),
    'body: must NOT be valid',
  )
  assert.equal(
    describeValidationError({ instancePath: '/chainId', keyword: 'const', params: { allowedValue: 8453 } }),
    'chainId: must be 8453',
  )
  assert.equal(
    describeValidationError({
      instancePath: '/amountIn',
      keyword: 'pattern',
      params: {},
      message: 'must match pattern "^0*(?:…)$"',
      parentSchema: { description: 'a decimal integer in 1..2^256-1' },
    }),
    'amountIn: must be a decimal integer in 1..2^256-1',
  )
  assert.equal(
    describeValidationError({
      instancePath: '/tokenIn',
      keyword: 'pattern',
      params: {},
      message: 'must match pattern "^0x[a-fA-F0-9]{40}$"',
      parentSchema: {},
    }),
    'tokenIn: must match pattern "^0x[a-fA-F0-9]{40}$"',
  )
})
