import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { type DevnetFile, devnetChainConfig } from '../../src/chains/devnetChainConfig.ts'
import { createAdmissionControl } from '../../src/http/admission/createAdmissionControl.ts'
import { createApiKeyCheck } from '../../src/http/auth/createApiKeyCheck.ts'
import { createSwapApp } from '../../src/http/createSwapApp.ts'
import { createQuoteIssuer } from '../../src/http/quotes/createQuoteIssuer.ts'
import { createMemoryQuoteStore } from '../../src/http/quotes/createQuoteStore.ts'
import type { SwapApiDependencies } from '../../src/http/SwapApiDependencies.ts'
import { createMemoryRateLimiter } from '../../src/limits/createMemoryRateLimiter.ts'
import { createMarketState } from '../../src/market/createMarketState.ts'
import { createQuoteService } from '../../src/quote/createQuoteService.ts'
import { callApp, type Mode } from './callApp.ts'
import { type HttpTestStack, KEY_A, KEY_B, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'

// Every rule of the swap surface (spec 000 §§1–9 and docs/http-api.md), on the real service over
// the embedded seeded chain, through app.inject and through a real socket on 127.0.0.1.

let stack: HttpTestStack
let app: FastifyInstance
let weth: string
let usdc: string
let quoteBody: Record<string, unknown>
const modes: Mode[] = ['inject', 'socket']

/**
 * Room for the simultaneous quotes below: these rules are about the quote store and the limiter, not
 * about shedding (admission control has its own tests; the default bound of 16 solves per key sheds
 * some of 50 or 100 simultaneous ones whenever solves are slow).
 */
const roomyAdmission = () => createAdmissionControl({ maxConcurrent: 1000, maxConcurrentPerKey: 1000, maxEventLoopDelayMs: 0 })

beforeAll(async () => {
  stack = await startHttpTestStack()
  app = await stack.makeApp({ admission: roomyAdmission() })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const tokens = stack.service.devnet!.market.tokens
  weth = tokens.WETH.address
  usdc = tokens.USDC.address
  quoteBody = { chainId: 8453, tokenIn: weth, tokenOut: usdc, amountIn: '1000000000000000000', slippageBps: 50 }
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

/** A fresh app listening on a socket (its own limiter and cache). */
async function listeningApp(options: Parameters<HttpTestStack['makeApp']>[0] = {}) {
  const a = await stack.makeApp(options)
  await a.listen({ host: '127.0.0.1', port: 0 })
  return a
}

for (const mode of modes) {
  describe(`through ${mode}`, () => {
    test('requests without a valid key are limited per source address: past the limit 429 with Retry-After instead of 401; a valid key from that source is not', async () => {
      const limited = await listeningApp({ unauthenticatedPerMinute: 3 })
      try {
        for (const key of [undefined, 'wrong', `${KEY_A}x`])
          assert.equal((await callApp(limited, mode, { url: '/quote', key, body: quoteBody })).status, 401)
        const refused = await callApp(limited, mode, { url: '/nowhere', key: 'guess', body: {} })
        assert.equal(refused.status, 429)
        assert.deepEqual(refused.json, { error: 'rate limit exceeded', limit: 3, windowSec: 60 })
        assert.ok(Number(refused.headers['retry-after']) >= 1)
        const ok = await callApp(limited, mode, { url: '/quote', key: KEY_A, body: quoteBody })
        assert.equal(ok.status, 200, 'a caller with a valid key never counts against its source')
        assert.equal((await callApp(limited, mode, { method: 'GET', url: '/health' })).status, 200, 'public routes are not limited')
      } finally {
        await limited.close()
      }
    })

    test('GET /health is open: no key, 200 {ok:true}', async () => {
      const res = await callApp(app, mode, { method: 'GET', url: '/health' })
      assert.equal(res.status, 200)
      assert.deepEqual(res.json, { ok: true })
      assert.ok(res.headers['x-request-id'])
    })

    test('auth: missing and wrong keys are 401 {"error":"unauthorized"}; the right key passes', async () => {
      for (const key of [undefined, '', 'wrong', `${KEY_A}x`, KEY_A.slice(0, -1)]) {
        const res = await callApp(app, mode, { url: '/quote', key, body: quoteBody })
        assert.equal(res.status, 401, `key ${JSON.stringify(key)}`)
        assert.deepEqual(res.json, { error: 'unauthorized' })
      }
      for (const url of ['/submit', '/execute', '/nowhere']) {
        const res = await callApp(app, mode, { url, body: {} })
        assert.equal(res.status, 401, url)
      }
      // The document and its reference page are public (docs/http-api.md).
      for (const url of ['/openapi.json', '/docs']) assert.equal((await callApp(app, mode, { method: 'GET', url })).status, 200, url)
      const ok = await callApp(app, mode, { url: '/quote', key: KEY_A, body: quoteBody })
      assert.equal(ok.status, 200, ok.text)
      const okB = await callApp(app, mode, { url: '/quote', key: KEY_B, body: quoteBody })
      assert.equal(okB.status, 200, okB.text)
    })

    test('/quote answers a full RoutePlan; /submit answers {quoteId, chainId, to, data, value}', async () => {
      const quote = await callApp(app, mode, {
        url: '/quote',
        key: KEY_A,
        body: { ...quoteBody, feeBps: 25, taker: '0x000000000000000000000000000000000000bEEF' },
      })
      assert.equal(quote.status, 200, quote.text)
      const { quoteId, routePlan, expiresAt } = quote.json
      assert.match(quoteId, /^[0-9a-f]{64}$/)
      assert.ok(expiresAt > Date.now() && expiresAt <= Date.now() + 30_000)
      assert.deepEqual(Object.keys(quote.json).sort(), ['expiresAt', 'quoteId', 'routePlan'])
      for (const field of [
        'chainId',
        'tokenIn',
        'tokenOut',
        'amountIn',
        'expectedAmountOut',
        'minAmountOut',
        'feeBps',
        'slippageBps',
        'routes',
        'blockNumber',
        'gasEstimate',
        'feeBreakdown',
        'metadata',
        'nativeIn',
        'nativeOut',
      ]) {
        assert.ok(field in routePlan, `routePlan.${field}`)
      }
      assert.equal(routePlan.feeBps, 25)
      assert.ok(BigInt(routePlan.feeBreakdown.integratorFeeAmount) > 0n)
      assert.ok(routePlan.gasEstimate.gasUnits > 21_000 && BigInt(routePlan.gasEstimate.gasCostWei) > 0n)
      assert.ok(routePlan.routes[0].legs[0].data.kind)
      assert.ok(Array.isArray(routePlan.metadata.candidates) && routePlan.metadata.candidatePaths >= 1)
      const submit = await callApp(app, mode, {
        url: '/submit',
        key: KEY_A,
        body: { quoteId, user: '0x000000000000000000000000000000000000bEEF' },
      })
      assert.equal(submit.status, 200, submit.text)
      assert.deepEqual(Object.keys(submit.json).sort(), ['chainId', 'data', 'quoteId', 'to', 'value'])
      assert.equal(submit.json.quoteId, quoteId)
      assert.equal(submit.json.chainId, 8453)
      assert.equal(submit.json.to, stack.service.deps.quoteService.router)
      assert.equal(submit.json.value, '0')
      assert.match(submit.json.data, /^0x[0-9a-f]+$/)
    })
  })
}

/** Field, value, and what the 400's error must start with. */
const quoteCases: [string, unknown, string][] = [
  ['slippageBps', -1, 'slippageBps:'],
  ['slippageBps', 10_001, 'slippageBps:'],
  ['slippageBps', 1.5, 'slippageBps:'],
  ['slippageBps', '50', 'slippageBps:'],
  ['feeBps', -1, 'feeBps:'],
  ['feeBps', 10_001, 'feeBps:'],
  ['feeBps', null, 'feeBps:'],
  ['timeBudgetMs', 49, 'timeBudgetMs:'],
  ['timeBudgetMs', 10_001, 'timeBudgetMs:'],
  ['timeBudgetMs', 100.5, 'timeBudgetMs:'],
  ['chainId', 0, 'chainId:'],
  ['chainId', -8453, 'chainId:'],
  ['chainId', 1, 'chainId:'],
  ['chainId', '8453', 'chainId:'],
  ['maxHops', 0, 'maxHops:'],
  ['maxHops', -1, 'maxHops:'],
  ['allowedDexes', [], 'allowedDexes:'],
  ['allowedDexes', ['NOPE'], 'allowedDexes.0:'],
  ['allowedDexes', 'UNIV3', 'allowedDexes:'],
  ['allowedDexes', ['univ3'], 'allowedDexes.0:'],
  ['tokenIn', '0x123', 'tokenIn:'],
  ['tokenIn', `0x${'g'.repeat(40)}`, 'tokenIn:'],
  ['tokenIn', `0x${'a'.repeat(41)}`, 'tokenIn:'],
  ['tokenIn', 'a'.repeat(42), 'tokenIn:'],
  ['tokenOut', `0x${'a'.repeat(39)}`, 'tokenOut:'],
  ['taker', 'abc', 'taker:'],
  ['amountIn', '-1', 'amountIn:'],
  ['amountIn', '1.5', 'amountIn:'],
  ['amountIn', '0x10', 'amountIn:'],
  ['amountIn', 1, 'amountIn:'],
  ['amountIn', '', 'amountIn:'],
  ['amountIn', '0', 'amountIn:'],
  ['amountIn', (2n ** 256n).toString(), 'amountIn:'],
  ['splitEnabled', 'yes', 'splitEnabled:'],
  ['enforcePoolDisjoint', 1, 'enforcePoolDisjoint:'],
  ['extra', 1, 'extra:'],
  ['__proto__x', {}, '__proto__x:'],
]

describe('validation: every bound and pattern, one by one; the 400 names the field', () => {
  for (const [field, value, prefix] of quoteCases) {
    test(`/quote ${field} = ${JSON.stringify(value)} → 400`, async () => {
      const res = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, [field]: value } })
      assert.equal(res.status, 400, res.text)
      assert.ok(typeof res.json.error === 'string' && res.json.error.startsWith(prefix), `${res.json.error} should start with ${prefix}`)
      assert.deepEqual(Object.keys(res.json), ['error'])
    })
  }

  for (const field of ['chainId', 'tokenIn', 'tokenOut', 'amountIn', 'slippageBps']) {
    test(`/quote without ${field} → 400 naming it`, async () => {
      const { [field]: _gone, ...body } = quoteBody
      const res = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body })
      assert.equal(res.status, 400)
      assert.equal(res.json.error, `${field}: is required`)
    })
  }

  test('boundary values pass: slippageBps 0 and 10000, feeBps 0 and MAX_FEE_BPS (300), timeBudgetMs 50 and 10000, maxHops 1, one allowed dex, sentinels', async () => {
    const ok: Record<string, unknown>[] = [
      { slippageBps: 0 },
      { slippageBps: 10_000 },
      { feeBps: 0 },
      { feeBps: 300 },
      { timeBudgetMs: 50 },
      { timeBudgetMs: 10_000 },
      { maxHops: 1, allowedDexes: ['UNIV3'] },
      { splitEnabled: false, enforcePoolDisjoint: true },
      { taker: '0x000000000000000000000000000000000000bEEF' },
      { tokenIn: NATIVE },
      { tokenIn: '0x0000000000000000000000000000000000000000' },
      { tokenIn: usdc, tokenOut: NATIVE.toLowerCase() },
    ]
    for (const extra of ok) {
      const res = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, ...extra } })
      assert.equal(res.status, 200, `${JSON.stringify(extra)}: ${res.text}`)
    }
  })

  test('no route is a 400 with a clear error; the same token on both sides names tokenOut; WETH to ETH is a plan of no routes (the router unwraps)', async () => {
    const unknownToken = await callApp(app, 'inject', {
      url: '/quote',
      key: KEY_A,
      body: { ...quoteBody, tokenOut: '0x000000000000000000000000000000000000dEaD' },
    })
    assert.equal(unknownToken.status, 400)
    assert.match(unknownToken.json.error, /^no route: /)
    const dust = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, amountIn: '1' } })
    assert.equal(dust.status, 400)
    assert.match(dust.json.error, /^no route: /)
    const same = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, tokenOut: weth } })
    assert.equal(same.status, 400)
    assert.match(same.json.error, /^no route: tokenOut: /)
    // Was a 400 ("wrapping or unwrapping the native asset is not a swap"): a trade users send.
    const unwrap = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, tokenOut: NATIVE } })
    assert.equal(unwrap.status, 200, unwrap.text)
    assert.deepEqual([unwrap.json.routePlan.routes, unwrap.json.routePlan.nativeOut], [[], true])
    assert.equal(unwrap.json.routePlan.expectedAmountOut, quoteBody.amountIn)
  })

  test('maxHops, allowedDexes, splitEnabled and enforcePoolDisjoint are honoured in the plan', async () => {
    const oneHop = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, maxHops: 1 } })
    assert.equal(oneHop.status, 200, oneHop.text)
    for (const route of oneHop.json.routePlan.routes) assert.equal(route.legs.length, 1)
    const onlyV3 = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, allowedDexes: ['UNIV3'] } })
    assert.equal(onlyV3.status, 200, onlyV3.text)
    for (const route of onlyV3.json.routePlan.routes) for (const leg of route.legs) assert.equal(leg.dex, 'UNIV3')
    const big = { ...quoteBody, amountIn: (3000n * 10n ** 18n).toString() }
    const noSplit = await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...big, splitEnabled: false } })
    assert.equal(noSplit.status, 200, noSplit.text)
    assert.equal(noSplit.json.routePlan.routes.length, 1)
    const split = await callApp(app, 'inject', {
      url: '/quote',
      key: KEY_A,
      body: { ...big, splitEnabled: true, enforcePoolDisjoint: true },
    })
    assert.equal(split.status, 200, split.text)
    const pools = split.json.routePlan.routes.flatMap((r: any) => r.legs.map((l: any) => l.poolId))
    assert.equal(new Set(pools).size, pools.length, 'pool-disjoint routes share no pool')
  })

  test('valid requests the engine cannot take literally get clear answers: maxHops 5 and 1e300 search 4 hops', async () => {
    for (const maxHops of ['5', '1e300']) {
      const res = await callApp(app, 'inject', {
        url: '/quote',
        key: KEY_A,
        rawBody: JSON.stringify(quoteBody).replace(/}$/, `,"maxHops":${maxHops}}`),
      })
      assert.equal(res.status, 200, `maxHops ${maxHops}: ${res.text}`)
      assert.equal(res.json.routePlan.metadata.maxHopsSearched, 4)
    }
    assert.equal((await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: quoteBody })).json.routePlan.metadata.maxHopsSearched, 3)
    // allowedDexes naming only kinds with no pool here is answered 400 naming the kinds present
    // (createQuoteService.test.ts): every spec kind has pools on the seeded market since
    // MAVERICK_V2 joined it, so no request here reaches that answer.
  })

  const permit = { value: '1', deadline: 2_000_000_000, v: 27, r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}` }
  const submitCases: [Record<string, unknown>, string][] = [
    [{ permit: { ...permit, v: 256 } }, 'permit.v:'],
    [{ permit: { ...permit, v: -1 } }, 'permit.v:'],
    [{ permit: { ...permit, r: '0xzz' } }, 'permit.r:'],
    [{ permit: { ...permit, s: '22' } }, 'permit.s:'],
    [{ permit: { ...permit, value: '-1' } }, 'permit.value:'],
    [{ permit: { ...permit, deadline: 1.5 } }, 'permit.deadline:'],
    [{ permit: { ...permit, extra: true } }, 'permit.extra:'],
    [{ permit: { value: '1', deadline: 1, v: 27, r: '0x' } }, 'permit.s:'],
    [{ user: '0x1234' }, 'user:'],
    [{ user: undefined }, 'user:'],
    [{ quoteId: 7 }, 'quoteId:'],
    [{ useNativeIn: 'true' }, 'useNativeIn:'],
    [{ unwrapNativeOut: 0 }, 'unwrapNativeOut:'],
    [{ gasPriceWei: '1.0' }, 'gasPriceWei:'],
    [{ maxFeePerGasWei: '-5' }, 'maxFeePerGasWei:'],
    [{ maxPriorityFeePerGasWei: 'x' }, 'maxPriorityFeePerGasWei:'],
    [{ gasPriceWei: '1', maxFeePerGasWei: '2' }, 'gasPriceWei:'],
    [{ gasPriceWei: '1', maxPriorityFeePerGasWei: '2' }, 'gasPriceWei:'],
    [{ routePlan: {} }, 'routePlan:'],
  ]
  for (const [patch, prefix] of submitCases) {
    test(`/submit ${JSON.stringify(patch)} → 400 ${prefix}`, async () => {
      const body = JSON.parse(JSON.stringify({ quoteId: 'a'.repeat(64), user: '0x000000000000000000000000000000000000bEEF', ...patch }))
      const res = await callApp(app, 'inject', { url: '/submit', key: KEY_A, body })
      assert.equal(res.status, 400, res.text)
      assert.ok(res.json.error.startsWith(prefix), `${res.json.error} should start with ${prefix}`)
    })
  }

  test('/execute refuses extra properties (taker, gas-price fields) and validates like /quote and /submit', async () => {
    const base = { ...quoteBody, user: '0x000000000000000000000000000000000000bEEF' }
    for (const [patch, prefix] of [
      [{ taker: base.user }, 'taker:'],
      [{ gasPriceWei: '1' }, 'gasPriceWei:'],
      [{ quoteId: 'x' }, 'quoteId:'],
      [{ slippageBps: 10_001 }, 'slippageBps:'],
      [{ permit: { ...permit, v: 300 } }, 'permit.v:'],
      [{ user: undefined }, 'user:'],
      [{ timeBudgetMs: 20 }, 'timeBudgetMs:'],
    ] as [Record<string, unknown>, string][]) {
      const body = JSON.parse(JSON.stringify({ ...base, ...patch }))
      const res = await callApp(app, 'inject', { url: '/execute', key: KEY_A, body })
      assert.equal(res.status, 400, res.text)
      assert.ok(res.json.error.startsWith(prefix), `${res.json.error} should start with ${prefix}`)
    }
    const ok = await callApp(app, 'inject', { url: '/execute', key: KEY_A, body: { ...base, timeBudgetMs: 100 } })
    assert.equal(ok.status, 200, ok.text)
    assert.deepEqual(Object.keys(ok.json).sort(), ['chainId', 'data', 'expiresAt', 'quoteId', 'routePlan', 'to', 'value'])
  })

  test("/execute between the native asset and WETH: the router's own wrap or unwrap, refused by the schema unless exactly one end is native", async () => {
    const user = '0x000000000000000000000000000000000000bEEF'
    const wrap = { ...quoteBody, tokenIn: NATIVE, tokenOut: weth, user }
    const unwrap = { ...quoteBody, tokenIn: weth, tokenOut: NATIVE, user }
    for (const body of [
      { ...wrap, unwrapNativeOut: true },
      { ...wrap, useNativeIn: false },
      { ...wrap, useNativeIn: false, unwrapNativeOut: false },
      { ...unwrap, useNativeIn: true },
      { ...unwrap, unwrapNativeOut: false },
      { ...unwrap, useNativeIn: false, unwrapNativeOut: false },
    ]) {
      const res = await callApp(app, 'inject', { url: '/execute', key: KEY_A, body })
      assert.equal(res.status, 400, JSON.stringify(body))
      assert.match(res.json.error, /^useNativeIn, unwrapNativeOut: between the native asset and /, JSON.stringify(body))
    }
    for (const body of [wrap, unwrap, { ...wrap, useNativeIn: true }, { ...unwrap, unwrapNativeOut: true, useNativeIn: false }]) {
      const res = await callApp(app, 'inject', { url: '/execute', key: KEY_A, body })
      assert.equal(res.status, 200, `${JSON.stringify(body)}: ${res.text}`)
      assert.deepEqual(res.json.routePlan.routes, [], 'a wrap or unwrap alone')
    }
  })
})

describe('bodies that are not a request: never a 500', () => {
  for (const mode of modes) {
    test(`${mode}: not JSON, empty, wrong type, too large, too deep`, async () => {
      const cases: [string, { rawBody?: string; contentType?: string; body?: unknown }, number, RegExp][] = [
        ['not JSON', { rawBody: '{"chainId":' }, 400, /^body: /],
        ['not JSON (garbage)', { rawBody: 'hello' }, 400, /^body: /],
        ['empty', { rawBody: '' }, 400, /^body: /],
        ['text/plain', { rawBody: 'hello', contentType: 'text/plain' }, 415, /^body: /],
        ['form', { rawBody: 'a=1', contentType: 'application/x-www-form-urlencoded' }, 415, /^body: /],
        ['a JSON array', { body: [quoteBody] }, 400, /^body: /],
        ['a JSON string', { body: 'quote' }, 400, /^body: /],
        ['null', { rawBody: 'null' }, 400, /^body: /],
        ['too large', { rawBody: JSON.stringify({ ...quoteBody, pad: 'x'.repeat(40_000) }) }, 413, /^body: too large/],
        ['17 levels deep', { rawBody: `{"allowedDexes":${'['.repeat(16)}${']'.repeat(16)}}` }, 400, /nested deeper/],
        ['10,000 levels deep', { rawBody: `${'['.repeat(10_000)}${']'.repeat(10_000)}` }, 400, /nested deeper/],
        ['prototype poisoning', { rawBody: '{"__proto__":{"x":1},"chainId":8453}' }, 400, /^body: /],
      ]
      for (const [label, options, status, error] of cases) {
        const res = await callApp(app, mode, { url: '/quote', key: KEY_A, ...options })
        assert.equal(res.status, status, `${label}: ${res.text}`)
        assert.match(res.json?.error ?? '', error, label)
      }
    })
  }
})

describe('rate limit', () => {
  test('every authenticated call counts (failed validation and 404 too), /health and 401s do not; 429 body and Retry-After; order auth → limit → validation', async () => {
    for (const mode of modes) {
      const limited = await listeningApp({ rateLimitPerMinute: 5 })
      try {
        // The window's oldest hit is no earlier than this: Retry-After counts from it.
        const firstCountedAt = Date.now()
        const calls = [
          await callApp(limited, mode, { url: '/quote', key: KEY_A, body: quoteBody }), // 200
          await callApp(limited, mode, { url: '/quote', key: KEY_A, body: { ...quoteBody, slippageBps: -1 } }), // 400
          await callApp(limited, mode, { url: '/quote/compare', key: KEY_A, body: quoteBody }), // 404
          await callApp(limited, mode, {
            url: '/submit',
            key: KEY_A,
            body: { quoteId: 'nope', user: '0x000000000000000000000000000000000000bEEF' },
          }), // 404
          await callApp(limited, mode, {
            url: '/execute',
            key: KEY_A,
            body: { ...quoteBody, user: '0x000000000000000000000000000000000000bEEF' },
          }), // 200
        ]
        assert.deepEqual(
          calls.map((c) => c.status),
          [200, 400, 404, 404, 200],
        )
        for (let i = 0; i < 5; i++) {
          for (const url of ['/health', '/openapi.json', '/docs'])
            assert.equal((await callApp(limited, mode, { method: 'GET', url })).status, 200, url)
        }
        // A wrong key is refused before the limit is looked at and does not count.
        assert.equal((await callApp(limited, mode, { url: '/quote', key: 'wrong', body: quoteBody })).status, 401)
        assert.equal((await callApp(limited, mode, { url: '/quote', body: { not: 'valid' } })).status, 401, 'auth comes first')
        const over = await callApp(limited, mode, { url: '/quote', key: KEY_A, body: quoteBody })
        assert.equal(over.status, 429)
        assert.deepEqual(over.json, { error: 'rate limit exceeded', limit: 5, windowSec: 60 })
        // The seconds until the first call leaves the window: 60 less the time the calls took (a
        // second or two on a busy machine), rounded up.
        const retryAfter = Number(over.headers['retry-after'])
        const soonest = Math.ceil(60 - (Date.now() - firstCountedAt) / 1000)
        assert.ok(
          Number.isInteger(retryAfter) && retryAfter >= soonest && retryAfter <= 60,
          `Retry-After ${over.headers['retry-after']}, at least ${soonest}`,
        )
        // Limit before validation: an invalid body over the limit is a 429, not a 400; a 404 too.
        assert.equal((await callApp(limited, mode, { url: '/quote', key: KEY_A, body: { bad: true } })).status, 429)
        assert.equal((await callApp(limited, mode, { url: '/quote', key: KEY_A, rawBody: '{not json' })).status, 429)
        assert.equal((await callApp(limited, mode, { url: '/quote/split', key: KEY_A, body: quoteBody })).status, 429)
        // Another key has its own window; /health stays open.
        assert.equal((await callApp(limited, mode, { url: '/quote', key: KEY_B, body: quoteBody })).status, 200)
        assert.equal((await callApp(limited, mode, { method: 'GET', url: '/health' })).status, 200)
      } finally {
        await limited.close()
      }
    }
  })

  test('exact under concurrency: 150 simultaneous calls over sockets with limit 120 → exactly 120 admitted', async () => {
    const limited = await listeningApp({ rateLimitPerMinute: 120, admission: roomyAdmission() })
    try {
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          callApp(limited, 'socket', {
            url: '/quote',
            key: KEY_A,
            body: i % 3 === 0 ? { ...quoteBody, slippageBps: -1 } : { ...quoteBody, amountIn: String(10n ** 18n + BigInt(i)) },
          }),
        ),
      )
      const limitedCount = results.filter((r) => r.status === 429).length
      assert.equal(limitedCount, 30, `statuses: ${JSON.stringify(results.map((r) => r.status))}`)
      assert.equal(results.filter((r) => r.status !== 429).length, 120)
      assert.ok(results.filter((r) => r.status !== 429).every((r) => r.status === 200 || r.status === 400))
    } finally {
      await limited.close()
    }
  })
})

describe('quotes: concurrency, expiry, resubmission, key binding, signing', () => {
  test('100 simultaneous quotes over sockets all succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        callApp(app, 'socket', {
          url: '/quote',
          key: i % 2 ? KEY_A : KEY_B,
          // Each request its own amount: a quoteId is the digest of its payload (spec), so two identical
          // requests answered in the same millisecond on the same block rightly share one.
          body: { ...quoteBody, amountIn: String(10n ** 16n * BigInt(1 + i)) },
        }),
      ),
    )
    assert.deepEqual(
      results.filter((r) => r.status !== 200).map((r) => r.text),
      [],
    )
    assert.equal(new Set(results.map((r) => r.json.quoteId)).size, 100, 'distinct quoteIds')
  })

  test('a quote can be submitted again and again until it expires, then 404; unknown ids are 404', async () => {
    const short = await listeningApp({ quoteTtlMs: 1500 })
    try {
      for (const mode of modes) {
        const quote = await callApp(short, mode, { url: '/quote', key: KEY_A, body: quoteBody })
        assert.equal(quote.status, 200, quote.text)
        const { quoteId, expiresAt } = quote.json
        assert.ok(Math.abs(expiresAt - (Date.now() + 1500)) < 1000)
        const submit = { quoteId, user: '0x000000000000000000000000000000000000bEEF' }
        const first = await callApp(short, mode, { url: '/submit', key: KEY_A, body: submit })
        const second = await callApp(short, mode, { url: '/submit', key: KEY_A, body: submit })
        assert.equal(first.status, 200)
        assert.equal(second.status, 200, 'a retry of /submit works')
        assert.equal(second.json.data.slice(0, 10), first.json.data.slice(0, 10))
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 20))
        const late = await callApp(short, mode, { url: '/submit', key: KEY_A, body: submit })
        assert.equal(late.status, 404)
        assert.equal(typeof late.json.error, 'string')
        const unknown = await callApp(short, mode, { url: '/submit', key: KEY_A, body: { ...submit, quoteId: 'f'.repeat(64) } })
        assert.equal(unknown.status, 404)
        const empty = await callApp(short, mode, { url: '/submit', key: KEY_A, body: { ...submit, quoteId: '' } })
        assert.equal(empty.status, 404)
      }
    } finally {
      await short.close()
    }
  })

  test('a quote made with key A cannot be submitted with key B (404, like an unknown id)', async () => {
    for (const mode of modes) {
      const quote = await callApp(app, mode, { url: '/quote', key: KEY_A, body: quoteBody })
      const submit = { quoteId: quote.json.quoteId, user: '0x000000000000000000000000000000000000bEEF' }
      const withB = await callApp(app, mode, { url: '/submit', key: KEY_B, body: submit })
      assert.equal(withB.status, 404)
      assert.equal(
        withB.json.error,
        (await callApp(app, mode, { url: '/submit', key: KEY_B, body: { ...submit, quoteId: '0'.repeat(64) } })).json.error,
      )
      assert.equal((await callApp(app, mode, { url: '/submit', key: KEY_A, body: submit })).status, 200)
    }
  })

  test('quoteId is the hex SHA-256 of the canonical payload, HMAC-SHA256 with a signing key', async () => {
    const { computeQuoteId } = await import('../../src/http/quotes/computeQuoteId.ts')
    const signed = await stack.makeApp({ signingKey: 'a-signing-key-of-32-bytes-000000' })
    try {
      const res = await signed.inject({ method: 'POST', url: '/quote', headers: { 'x-api-key': KEY_A }, payload: quoteBody })
      const { quoteId, routePlan, expiresAt } = res.json()
      const apiKeyId = (await import('node:crypto')).createHash('sha256').update(KEY_A).digest('hex')
      assert.equal(
        computeQuoteId({ payload: { apiKeyId, expiresAt, routePlan }, signingKey: 'a-signing-key-of-32-bytes-000000' }).quoteId,
        quoteId,
      )
      assert.notEqual(computeQuoteId({ payload: { apiKeyId, expiresAt, routePlan } }).quoteId, quoteId)
      const plain = await app.inject({ method: 'POST', url: '/quote', headers: { 'x-api-key': KEY_A }, payload: quoteBody })
      const p = plain.json()
      assert.equal(computeQuoteId({ payload: { apiKeyId, expiresAt: p.expiresAt, routePlan: p.routePlan } }).quoteId, p.quoteId)
    } finally {
      await signed.close()
    }
  })
})

describe('errors, absent routes, OpenAPI, logs', () => {
  test('/quote/compare and /quote/split are not registered: 404 (after auth)', async () => {
    for (const mode of modes) {
      for (const url of ['/quote/compare', '/quote/split']) {
        const res = await callApp(app, mode, { url, key: KEY_A, body: quoteBody })
        assert.equal(res.status, 404, url)
        assert.equal(typeof res.json.error, 'string')
        assert.equal((await callApp(app, mode, { url, body: quoteBody })).status, 401)
      }
    }
  })

  test('submit refuses what the router cannot execute: wrap into a non-WETH token, unwrap a non-WETH output, permit with native input', async () => {
    const usdcIn = (
      await callApp(app, 'inject', {
        url: '/quote',
        key: KEY_A,
        body: { ...quoteBody, tokenIn: usdc, tokenOut: weth, amountIn: '1000000000' },
      })
    ).json
    const wethIn = (await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: quoteBody })).json
    const ethIn = (await callApp(app, 'inject', { url: '/quote', key: KEY_A, body: { ...quoteBody, tokenIn: NATIVE } })).json
    const user = '0x000000000000000000000000000000000000bEEF'
    const permit = { value: '1', deadline: 2_000_000_000, v: 27, r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}` }
    const submit = (body: Record<string, unknown>) => callApp(app, 'inject', { url: '/submit', key: KEY_A, body: { user, ...body } })
    assert.match((await submit({ quoteId: usdcIn.quoteId, useNativeIn: true })).json.error, /^useNativeIn: /)
    assert.match((await submit({ quoteId: wethIn.quoteId, unwrapNativeOut: true })).json.error, /^unwrapNativeOut: /)
    assert.match((await submit({ quoteId: ethIn.quoteId, permit })).json.error, /^permit: /)
    // Allowed overrides: WETH in paid as ETH, ETH in paid as WETH, WETH out unwrapped.
    assert.equal((await submit({ quoteId: wethIn.quoteId, useNativeIn: true })).json.value, wethIn.routePlan.amountIn)
    assert.equal((await submit({ quoteId: ethIn.quoteId, useNativeIn: false })).json.value, '0')
    assert.equal((await submit({ quoteId: ethIn.quoteId })).json.value, ethIn.routePlan.amountIn)
    assert.equal((await submit({ quoteId: usdcIn.quoteId, unwrapNativeOut: true })).status, 200)
  })

  test('a fee needs a fee recipient: without one configured, feeBps > 0 is a 400 naming feeBps', async () => {
    const noFee = await stack.makeApp({ feeRecipient: null })
    try {
      const res = await noFee.inject({
        method: 'POST',
        url: '/quote',
        headers: { 'x-api-key': KEY_A },
        payload: { ...quoteBody, feeBps: 10 },
      })
      assert.equal(res.statusCode, 400)
      assert.match(res.json().error, /^feeBps: /)
      assert.equal(
        (await noFee.inject({ method: 'POST', url: '/quote', headers: { 'x-api-key': KEY_A }, payload: { ...quoteBody, feeBps: 0 } }))
          .statusCode,
        200,
      )
    } finally {
      await noFee.close()
    }
  })

  test('a market with no fresh snapshot answers 503; an unexpected failure answers 500 without its message', async () => {
    const { service } = stack
    const lines: string[] = []
    const logger = {
      level: 'info',
      stream: new Writable({
        write(chunk, _e, cb) {
          lines.push(String(chunk))
          cb()
        },
      }),
    }
    // A real market state that has not synced yet (never started): stale by definition.
    const unsynced = createMarketState({
      client: service.publicClient,
      chain: devnetChainConfig({ file: service.devnet!.market as unknown as DevnetFile }),
      solver: service.solver,
      maxSnapshotAgeMs: 1000,
      log: () => {},
    })
    const deps = (quoteService: SwapApiDependencies['quoteService']): SwapApiDependencies => {
      const store = createMemoryQuoteStore({})
      return {
        ...service.deps,
        quoteService,
        apiKeys: createApiKeyCheck({ keys: [KEY_A] }),
        limiter: createMemoryRateLimiter({ limit: 100 }),
        quoteStore: store,
        quoteIssuer: createQuoteIssuer({ store, ttlMs: 1000 }),
      }
    }
    const common = {
      chainId: 8453,
      weth: service.chain.weth,
      router: service.deps.quoteService.router,
      getGasPriceWei: () => service.publicClient.getGasPrice(),
    }
    const staleApp = await createSwapApp({
      deps: deps(createQuoteService({ ...common, solver: service.solver, market: unsynced })),
      logger,
    })
    // Fault injection (a bug stands in for nothing real here): the gas-price read throws a plain
    // error whose text must stay in the logs.
    const broken = {
      ...common,
      getGasPriceWei: async (): Promise<bigint> => {
        throw new Error('internal detail: secret-token-xyz')
      },
    }
    const brokenApp = await createSwapApp({
      deps: deps(createQuoteService({ ...broken, solver: service.solver, market: service.market })),
      logger,
    })
    try {
      for (const url of ['/quote', '/execute']) {
        const body = url === '/quote' ? quoteBody : { ...quoteBody, user: '0x000000000000000000000000000000000000bEEF' }
        const stale = await staleApp.inject({ method: 'POST', url, headers: { 'x-api-key': KEY_A }, payload: body })
        assert.equal(stale.statusCode, 503, stale.body)
        assert.match(stale.json().error, /^market data is stale/)
        assert.doesNotMatch(stale.body, /limit \d+ ms|never/)
        const failed = await brokenApp.inject({ method: 'POST', url, headers: { 'x-api-key': KEY_A }, payload: body })
        assert.equal(failed.statusCode, 500, failed.body)
        assert.deepEqual(failed.json(), { error: 'internal error' })
        assert.ok(!failed.body.includes('secret-token-xyz'))
      }
      assert.ok(
        lines.some((l) => l.includes('"level":50') && l.includes('secret-token-xyz')),
        'the 500 is logged with its cause',
      )
    } finally {
      await staleApp.close()
      await brokenApp.close()
    }
  })

  test("a solver's refusal names its field in the HTTP answer (the field crosses the FFI as a property)", async () => {
    const { service } = stack
    const common = {
      chainId: 8453,
      weth: service.chain.weth,
      router: service.deps.quoteService.router,
      getGasPriceWei: () => service.publicClient.getGasPrice(),
      market: service.market,
    }
    // Fault injection: the request the schema passed reaches the real solver with a budget it
    // refuses (0 ms), as a caller skipping the TypeScript check would send it.
    const zeroBudget = {
      ...service.solver,
      quote: (request: Parameters<typeof service.solver.quote>[0]) => service.solver.quote({ ...request, timeBudgetMs: 0 }),
    }
    const store = createMemoryQuoteStore({})
    const deps: SwapApiDependencies = {
      ...service.deps,
      quoteService: createQuoteService({ ...common, solver: zeroBudget }),
      apiKeys: createApiKeyCheck({ keys: [KEY_A] }),
      limiter: createMemoryRateLimiter({ limit: 100 }),
      quoteStore: store,
      quoteIssuer: createQuoteIssuer({ store, ttlMs: 1000 }),
    }
    const refusing = await createSwapApp({ deps, logger: false })
    try {
      const res = await refusing.inject({ method: 'POST', url: '/quote', headers: { 'x-api-key': KEY_A }, payload: quoteBody })
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), { error: 'timeBudgetMs: 0 is outside 1..=10000' })
    } finally {
      await refusing.close()
    }
  })

  test('logs carry a request id and never the API key (the header is redacted even when logged)', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk))
        cb()
      },
    })
    // A serializer that logs every header: the redaction must still hide the key.
    const logged = await stack.makeApp({
      logger: {
        level: 'trace',
        stream,
        serializers: { req: (req: any) => ({ method: req.method, url: req.url, headers: req.headers }) },
      } as any,
    })
    await logged.listen({ host: '127.0.0.1', port: 0 })
    try {
      for (const mode of modes) {
        await callApp(logged, mode, { url: '/quote', key: KEY_A, body: quoteBody })
        await callApp(logged, mode, { url: '/quote', key: KEY_B, body: { ...quoteBody, slippageBps: -1 } })
        await callApp(logged, mode, { url: '/quote', key: 'a-wrong-key-that-must-not-be-logged', body: quoteBody })
        await callApp(logged, mode, {
          url: '/submit',
          key: KEY_A,
          body: { quoteId: 'x', user: '0x000000000000000000000000000000000000bEEF' },
        })
      }
      const text = lines.join('')
      assert.ok(lines.length >= 16, `${lines.length} log lines`)
      assert.ok(text.includes('[redacted]'), 'the header was logged, redacted')
      for (const secret of [KEY_A, KEY_B, 'a-wrong-key-that-must-not-be-logged'])
        assert.ok(!text.includes(secret), `a log line carries ${secret}`)
      assert.ok(lines.filter((l) => l.includes('"reqId"')).length >= 16)
    } finally {
      await logged.close()
    }
  })
})
