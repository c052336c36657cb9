import assert from 'node:assert/strict'
import { test } from 'vitest'
import Fastify from 'fastify'
import { RouterEncodingError } from '../router/RouterEncodingError.ts'
import { SolverError } from '../../bindings/errors.ts'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError, type QuoteError } from '../quote/errors.ts'
import { UpstreamError } from '../upstream/UpstreamError.ts'
import { describeValidationError, handleError, type HttpError, QuoteNotFoundError } from './errors.ts'

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

test("another layer's error that shares a surface kind ('no route', 'unsupported') and escaped it is a 500 that says nothing", async () => {
  for (const error of [
    new SolverError('no route', 'no pool connects the tokens', { field: 'tokenOut' }),
    new SolverError('invalid input', 'must be at most 10000', { field: 'slippageBps' }),
    new UpstreamError('no route', 'odos answered: secret upstream body'),
    new UpstreamError('unsupported', 'executable quotes need a taker'),
  ]) {
    assert.deepEqual(await answerTo(error), { status: 500, body: { error: 'internal error' } }, `${error.name} ${error.kind}`)
  }
})

test("the swap surface's own errors answer with their kind's status", async () => {
  assert.deepEqual(await answerTo(new NoRouteError({ message: 'nothing connects the tokens' })), {
    status: 400,
    body: { error: 'no route: nothing connects the tokens' },
  })
  assert.deepEqual(await answerTo(new InvalidQuoteRequestError({ field: 'slippageBps', message: 'must be at most 10000' })), {
    status: 400,
    body: { error: 'slippageBps: must be at most 10000' },
  })
  // A stale market's cause stays in the log (an RPC error can name a node's URL and key); a cause the
  // client may know (a venue that re-priced, a reorg during the solve) is told.
  assert.deepEqual(await answerTo(new QuoteMarketStaleError({ message: 'https://node.example/key-123 timed out' })), {
    status: 503,
    body: { error: 'market data is stale: quotes are refused until the chain is reachable again' },
  })
  assert.deepEqual(await answerTo(new QuoteMarketStaleError({ message: 'x', publicReason: 'a prop AMM venue re-priced away' })), {
    status: 503,
    body: { error: 'a prop AMM venue re-priced away' },
  })
  assert.deepEqual(await answerTo(new QuoteNotFoundError()), {
    status: 404,
    body: { error: 'quote not found: unknown, expired, or made with another API key' },
  })
})

// The handler switches on `kind`, so no two of the swap surface's error classes may share one: a
// class added with a taken kind makes `kindsAreUnique` fail to type-check (`npm test` runs tsc).
type SurfaceKinds = {
  http: HttpError['kind']
  quote: QuoteError['kind']
  router: RouterEncodingError['kind']
}
type SharedWith<K extends keyof SurfaceKinds> = {
  [O in Exclude<keyof SurfaceKinds, K>]: Extract<SurfaceKinds[K], SurfaceKinds[O]>
}[Exclude<keyof SurfaceKinds, K>]
type SharedKinds = { [K in keyof SurfaceKinds]: SharedWith<K> }[keyof SurfaceKinds]
const kindsAreUnique: [SharedKinds] extends [never] ? true : { shared: SharedKinds } = true
void kindsAreUnique
