import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { callApp, type Mode } from './callApp.ts'
import { type HttpTestStack, KEY_A, startHttpTestStack } from './startHttpTestStack.ts'

// The served OpenAPI document (built by @fastify/swagger from the route schemas) and the reference
// page next to it: one definition per type (components and $ref), exact for this deployment (its
// chain, router, WETH, fee bound, uint256 amounts, mutual exclusions), public like /health.

let stack: HttpTestStack
let app: FastifyInstance
let noFeeApp: FastifyInstance
let doc: any
let router: string
let weth: string
const modes: Mode[] = ['inject', 'socket']

beforeAll(async () => {
  stack = await startHttpTestStack()
  app = await stack.makeApp()
  await app.listen({ host: '127.0.0.1', port: 0 })
  noFeeApp = await stack.makeApp({ feeRecipient: null })
  router = stack.service.deps.quoteService.router
  weth = stack.service.deps.weth
  doc = (await callApp(app, 'inject', { method: 'GET', url: '/openapi.json' })).json
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

/** The component a `$ref` names, or the schema itself. */
function resolve(schema: any): any {
  if (schema?.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '')
    assert.ok(doc.components.schemas[name], `${schema.$ref} resolves`)
    return doc.components.schemas[name]
  }
  return schema
}

function* walk(node: any, path = '#'): Generator<[string, any]> {
  if (node === null || typeof node !== 'object') return
  yield [path, node]
  for (const [key, value] of Object.entries(node)) yield* walk(value, `${path}/${key}`)
}

const pattern = (schema: any) => new RegExp(resolve(schema).pattern, 'u')

describe('the document', () => {
  test('GET /openapi.json and the /docs page are public: no key, not counted, same document', async () => {
    for (const mode of modes) {
      const res = await callApp(app, mode, { method: 'GET', url: '/openapi.json' })
      assert.equal(res.status, 200)
      assert.match(res.headers['content-type'], /^application\/json/)
      assert.deepEqual(res.json, doc)
      const withKey = await callApp(app, mode, { method: 'GET', url: '/openapi.json', key: KEY_A })
      assert.deepEqual(withKey.json, doc)
      assert.deepEqual((await callApp(app, mode, { method: 'GET', url: '/docs/json' })).json, doc)
    }
  })

  test('OpenAPI 3.1, version 0.2.0, the served paths with their statuses, compare/split absent', () => {
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '0.2.0')
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/execute',
      '/health',
      '/market/pools/{poolId}',
      '/openapi.json',
      '/quote',
      '/ready',
      '/submit',
    ])
    assert.deepEqual(doc.components.securitySchemes.ApiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' })
    assert.deepEqual(doc.security, [{ ApiKey: [] }])
    for (const path of ['/health', '/ready', '/openapi.json']) assert.deepEqual(doc.paths[path].get.security, [])
    const statuses = {
      '/quote': ['200', '400', '401', '413', '415', '429', '500', '503'],
      '/submit': ['200', '400', '401', '404', '413', '415', '429', '500', '503'],
      '/execute': ['200', '400', '401', '413', '415', '429', '500', '503'],
    }
    for (const [path, expected] of Object.entries(statuses)) {
      const op = doc.paths[path].post
      assert.deepEqual(Object.keys(op.responses).sort(), expected, path)
      assert.equal(op.security, undefined, `${path} uses the global ApiKey`)
      assert.deepEqual(op.responses['429'].headers['retry-after'].schema, { type: 'integer', minimum: 1 })
      for (const [status, response] of Object.entries<any>(op.responses))
        assert.ok(response.description.length > 10, `${path} ${status} is described`)
    }
    assert.match(doc.paths['/quote'].post.responses['400'].description, /no route: /)
    assert.deepEqual(Object.keys(doc.paths['/market/pools/{poolId}'].get.responses).sort(), [
      '200',
      '400',
      '401',
      '404',
      '429',
      '500',
      '503',
    ])
  })

  test('one definition per type: bodies and nested types are $refs to components, and every $ref resolves', () => {
    const names = Object.keys(doc.components.schemas)
    for (const name of [
      'Address',
      'Hex',
      'AmountString',
      'DexId',
      'LegData',
      'RouteLeg',
      'SplitRoute',
      'RoutePlan',
      'PermitPayload',
      'QuoteRequest',
      'QuoteResponse',
      'SubmitRequest',
      'SubmitResponse',
      'ExecuteRequest',
      'ExecuteResponse',
      'Error',
      'RateLimitError',
    ]) {
      assert.ok(names.includes(name), name)
    }
    const bodyRef = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema.$ref
    assert.equal(bodyRef('/quote'), '#/components/schemas/QuoteRequest')
    assert.equal(bodyRef('/submit'), '#/components/schemas/SubmitRequest')
    assert.equal(bodyRef('/execute'), '#/components/schemas/ExecuteRequest')
    assert.equal(doc.paths['/quote'].post.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/QuoteResponse')
    assert.equal(doc.components.schemas.QuoteResponse.properties.routePlan.$ref, '#/components/schemas/RoutePlan')
    assert.equal(doc.components.schemas.ExecuteResponse.properties.routePlan.$ref, '#/components/schemas/RoutePlan')
    // The RoutePlan is written once: a single object in the whole document lists its fields.
    const plans = [...walk(doc)].filter(([, node]) => node.properties?.expectedAmountOut && node.properties?.minAmountOut)
    assert.deepEqual(
      plans.map(([path]) => path),
      ['#/components/schemas/RoutePlan'],
    )
    for (const [path, node] of walk(doc)) {
      if (typeof node.$ref === 'string') resolve(node)
      assert.ok(!Object.keys(node).some((k) => k.startsWith('~')), `${path}: no TypeBox internals`)
    }
    const legKinds = resolve(doc.components.schemas.RouteLeg.properties.data).anyOf.map(
      (o: any) => o.properties.kind.enum?.[0] ?? o.properties.kind.const,
    )
    // The spec's 13 kinds, plus pancake_infinity_cl, balancer_vault and maverick_v2 since 0.2.0
    // (additions: the others unchanged).
    assert.equal(legKinds.length, 16)
    assert.ok(['pancake_infinity_cl', 'balancer_vault', 'maverick_v2'].every((k) => legKinds.includes(k)))
    assert.equal(resolve(doc.components.schemas.QuoteRequest.properties.allowedDexes.items).enum.length, 21)
    // OpenAPI links: a quoteId from /quote or /execute goes into /submit.
    for (const path of ['/quote', '/execute']) {
      assert.deepEqual(doc.paths[path].post.responses['200'].links.submit.requestBody, { quoteId: '$response.body#/quoteId' })
    }
  })

  test('exact for this deployment: the served chain, uint256 amounts, 32-byte permit words, non-negative deadlines', () => {
    const quote = doc.components.schemas.QuoteRequest
    assert.deepEqual(quote.properties.chainId.enum, [8453])
    assert.equal(quote.properties.chainId.type, 'integer')
    const amountIn = pattern(quote.properties.amountIn)
    for (const [text, ok] of [
      ['1', true],
      ['0', false],
      ['000', false],
      ['0001', true],
      [(2n ** 256n - 1n).toString(), true],
      [(2n ** 256n).toString(), false],
      [`00${2n ** 256n - 1n}`, true],
    ] as const) {
      assert.equal(amountIn.test(text), ok, text)
    }
    const permit = doc.components.schemas.PermitPayload
    assert.equal(pattern(permit.properties.value).test((2n ** 256n - 1n).toString()), true)
    assert.equal(pattern(permit.properties.value).test((2n ** 256n).toString()), false)
    assert.equal(pattern(permit.properties.value).test('0'), true)
    for (const word of ['r', 's']) {
      assert.equal(pattern(permit.properties[word]).test(`0x${'ab'.repeat(32)}`), true)
      assert.equal(pattern(permit.properties[word]).test(`0x${'ab'.repeat(31)}`), false)
    }
    assert.deepEqual([permit.properties.deadline.minimum, permit.properties.deadline.maximum], [0, Number.MAX_SAFE_INTEGER])
    assert.deepEqual([permit.properties.v.minimum, permit.properties.v.maximum], [0, 255])
    assert.deepEqual(
      [quote.properties.maxHops.minimum, quote.properties.maxHops.maximum],
      [1, undefined],
      'any depth: beyond the deepest search means it',
    )
    assert.deepEqual([quote.properties.timeBudgetMs.minimum, quote.properties.timeBudgetMs.maximum], [50, 10_000])
    assert.equal(resolve(quote.properties.tokenIn).pattern, '^0x[a-fA-F0-9]{40}$')
  })

  test('exact for this deployment: the fee bound is the highest cap a key can be paid under; user is never the router', async () => {
    assert.equal(
      doc.components.schemas.QuoteRequest.properties.feeBps.maximum,
      300,
      'MAX_FEE_BPS, the test keys having no cap of their own',
    )
    const noFeeDoc = (await callApp(noFeeApp, 'inject', { method: 'GET', url: '/openapi.json' })).json
    for (const name of ['QuoteRequest', 'ExecuteRequest'])
      assert.equal(noFeeDoc.components.schemas[name].properties.feeBps.maximum, 0, name)
    for (const name of ['SubmitRequest', 'ExecuteRequest']) {
      const user = doc.components.schemas[name].properties.user
      const notRouter = new RegExp(user.not.pattern, 'u')
      assert.equal(notRouter.test(router), true)
      assert.equal(notRouter.test(router.toLowerCase()), true)
      assert.equal(notRouter.test('0x000000000000000000000000000000000000bEEF'), false)
      assert.match(user.not.description, /^user: /)
    }
  })

  test('the mutual exclusions are stated: a legacy gas price or EIP-1559 fees; native flags against the tokens on /execute', () => {
    const submit = doc.components.schemas.SubmitRequest
    assert.deepEqual(submit.not.required, ['gasPriceWei'])
    assert.deepEqual(submit.not.anyOf, [{ required: ['maxFeePerGasWei'] }, { required: ['maxPriorityFeePerGasWei'] }])
    const rules = doc.components.schemas.ExecuteRequest.allOf.map((rule: any) => rule.not.description)
    assert.deepEqual(
      rules.map((d: string) => d.split(':')[0]),
      ['permit', 'useNativeIn', 'unwrapNativeOut', 'useNativeIn, unwrapNativeOut'],
    )
    assert.ok(rules[1].includes(weth))
    assert.ok(rules[3].includes(weth))
  })
})

describe('the reference page', () => {
  test('GET /docs serves Swagger UI from local files only (works offline), over the same document', async () => {
    for (const mode of modes) {
      const page = await callApp(app, mode, { method: 'GET', url: '/docs' })
      assert.equal(page.status, 200)
      assert.match(page.headers['content-type'], /^text\/html/)
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
      assert.ok(assets.length >= 4, page.text)
      for (const asset of assets) {
        assert.doesNotMatch(asset, /^(https?:)?\/\//, `${asset} is local`)
        const res = await callApp(app, mode, { method: 'GET', url: asset })
        assert.equal(res.status, 200, asset)
      }
      const initializer = await callApp(app, mode, { method: 'GET', url: '/docs/static/swagger-initializer.js' })
      assert.match(initializer.text, /validatorUrl: null/)
      assert.match(initializer.text, /resolveUrl\('\.\/json'\)/)
      assert.doesNotMatch(initializer.text.replace(/\/\/ .*$/gm, ''), /https?:\/\//, 'no remote URL outside comments')
    }
  })
})
