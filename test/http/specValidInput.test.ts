import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { dexIds } from '../../src/http/schemas/scalars.ts'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'

// No 500 on spec-valid input (issue 12, item 3), and every rule the served document states is the
// service's own (item 12): each value the router cannot encode is a 400 naming the request's
// field, each edge the router can encode is accepted, and each combination the document refuses
// is refused with the field named. Cases marked "was 500" reached viem's ABI encoder unchecked.

const UINT256_MAX = 2n ** 256n - 1n
const USER = '0x000000000000000000000000000000000000bEEF'

let stack: HttpTestStack
let app: FastifyInstance
let noFeeApp: FastifyInstance
let router: string
let weth: string
let usdc: string
let quoteBody: Record<string, unknown>
const permit = { value: '1', deadline: 2_000_000_000, v: 27, r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}` }

beforeAll(async () => {
  stack = await startHttpTestStack()
  app = await stack.makeApp()
  noFeeApp = await stack.makeApp({ feeRecipient: null })
  const tokens = stack.service.devnet!.market.tokens
  weth = tokens.WETH.address
  usdc = tokens.USDC.address
  router = stack.service.deps.quoteService.router
  quoteBody = { chainId: 8453, tokenIn: weth, tokenOut: usdc, amountIn: '1000000000000000000', slippageBps: 50 }
}, 300_000)
afterAll(async () => {
  await stack?.close()
})

const post = (url: string, body: unknown, on = app) => callApp(on, 'inject', { url, key: KEY_A, body })

/** A fresh quoteId of `quoteBody` (patched) for /submit. */
async function quoteId(patch: Record<string, unknown> = {}): Promise<string> {
  const res = await post('/quote', { ...quoteBody, ...patch })
  assert.equal(res.status, 200, res.text)
  return res.json.quoteId
}

function assertRefused(res: { status: number; json: any; text: string }, prefix: string) {
  assert.equal(res.status, 400, res.text)
  assert.ok(res.json.error.startsWith(prefix), `${res.json.error} should start with ${prefix}`)
}

describe('permit values the router cannot encode are a 400 naming the field (was 500)', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['r of 31 bytes', { r: `0x${'11'.repeat(31)}` }, 'permit.r: '],
    ['r of 33 bytes', { r: `0x${'11'.repeat(33)}` }, 'permit.r: '],
    ['r with an odd digit', { r: `0x${'1'.repeat(63)}` }, 'permit.r: '],
    ['s of 0 bytes', { s: '0x' }, 'permit.s: '],
    ['s of 31 bytes', { s: `0x${'22'.repeat(31)}` }, 'permit.s: '],
    ['a negative deadline', { deadline: -1 }, 'permit.deadline: '],
    ['a deadline past 2^53 - 1 (JSON cannot carry it exactly)', { deadline: 2 ** 64 }, 'permit.deadline: '],
    ['a deadline of 1e300', { deadline: 1e300 }, 'permit.deadline: '],
    ['a value of 2^256', { value: (UINT256_MAX + 1n).toString() }, 'permit.value: '],
    ['a value of 10^100', { value: `1${'0'.repeat(100)}` }, 'permit.value: '],
  ]
  for (const [name, patch, prefix] of cases) {
    test(`${name}: /execute and /submit`, async () => {
      assertRefused(await post('/execute', { ...quoteBody, user: USER, permit: { ...permit, ...patch } }), prefix)
      assertRefused(await post('/submit', { quoteId: await quoteId(), user: USER, permit: { ...permit, ...patch } }), prefix)
    })
  }

  test('the edges the router holds are accepted: value 0 and 2^256 - 1, deadline 0 and 2^53 - 1, v 0 and 255', async () => {
    const id = await quoteId()
    for (const patch of [
      { value: '0', deadline: 0, v: 0 },
      { value: UINT256_MAX.toString(), deadline: Number.MAX_SAFE_INTEGER, v: 255 },
      { value: `000${UINT256_MAX}` },
    ]) {
      const res = await post('/submit', { quoteId: id, user: USER, permit: { ...permit, ...patch } })
      assert.equal(res.status, 200, `${JSON.stringify(patch)}: ${res.text}`)
      const execute = await post('/execute', { ...quoteBody, user: USER, permit: { ...permit, ...patch } })
      assert.equal(execute.status, 200, `${JSON.stringify(patch)}: ${execute.text}`)
    }
  })
})

describe('amounts and lists that reach the solver', () => {
  test('amountIn with leading zeros past 78 digits is quoted, echoed canonical (was a 400 "request:")', async () => {
    const res = await post('/quote', { ...quoteBody, amountIn: `${'0'.repeat(90)}1000000000000000000` })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.json.routePlan.amountIn, '1000000000000000000')
  })

  test("amountIn 2^256 - 1 is the market's answer (no route), never a 500", async () => {
    for (const url of ['/quote', '/execute'])
      assertRefused(
        await post(url, { ...quoteBody, user: url === '/execute' ? USER : undefined, amountIn: UINT256_MAX.toString() }),
        'no route: ',
      )
  })

  test("every pair of the market's tokens with absurd amounts (up to 2^256 - 1, with a fee) is quoted or has no route, never a 500", async () => {
    const tokens = [...Object.values(stack.service.devnet!.market.tokens).map((t) => t.address), NATIVE]
    for (const tokenIn of tokens) {
      for (const tokenOut of tokens) {
        for (const amountIn of [UINT256_MAX, 2n ** 255n, 10n ** 60n, 2n ** 128n, 2n ** 96n]) {
          const res = await post('/quote', { ...quoteBody, tokenIn, tokenOut, amountIn: amountIn.toString(), feeBps: 30 })
          assert.ok(
            res.status === 200 || (res.status === 400 && res.json.error.startsWith('no route: ')),
            `${tokenIn} → ${tokenOut} ${amountIn}: ${res.status} ${res.text}`,
          )
        }
      }
    }
  })

  test('every DexId alone in allowedDexes is quoted or has no route, never a 500 or an unstated 400', async () => {
    for (const dex of dexIds) {
      const res = await post('/quote', { ...quoteBody, allowedDexes: [dex] })
      assert.ok(
        res.status === 200 || (res.status === 400 && /^(no route|allowedDexes): /.test(res.json.error)),
        `${dex}: ${res.status} ${res.text}`,
      )
    }
  })

  test('taker equal to the router only stands in for the calldata estimate: quoted', async () => {
    assert.equal((await post('/quote', { ...quoteBody, taker: router.toLowerCase() })).status, 200)
  })
})

describe('every combination the document refuses is refused, naming the field; what it allows is answered', () => {
  test('chainId: only the served chain', async () => {
    assertRefused(await post('/quote', { ...quoteBody, chainId: 1 }), 'chainId: must be 8453')
    assertRefused(await post('/execute', { ...quoteBody, user: USER, chainId: 10 }), 'chainId: must be 8453')
  })

  test('gas-price fields: a legacy price or EIP-1559 fees, not both; their order is not checked (they are not used)', async () => {
    const id = await quoteId()
    assertRefused(
      await post('/submit', { quoteId: id, user: USER, gasPriceWei: '1', maxFeePerGasWei: '2' }),
      'gasPriceWei: cannot be combined',
    )
    assertRefused(
      await post('/submit', { quoteId: id, user: USER, gasPriceWei: '1', maxPriorityFeePerGasWei: '2' }),
      'gasPriceWei: cannot be combined',
    )
    for (const fees of [
      { gasPriceWei: '1' },
      { maxFeePerGasWei: '2', maxPriorityFeePerGasWei: '3' },
      { maxFeePerGasWei: UINT256_MAX.toString() },
    ]) {
      assert.equal((await post('/submit', { quoteId: id, user: USER, ...fees })).status, 200, JSON.stringify(fees))
    }
  })

  test('user is never the router, in any letter case', async () => {
    for (const user of [router, router.toLowerCase(), `0x${router.slice(2).toUpperCase()}`]) {
      assertRefused(await post('/submit', { quoteId: await quoteId(), user }), 'user: must not be the router')
      assertRefused(await post('/execute', { ...quoteBody, user }), 'user: must not be the router')
    }
  })

  test('/execute native flags against its tokens: a permit on native input, a wrap or an unwrap of a non-WETH token', async () => {
    const execute = (patch: Record<string, unknown>) => post('/execute', { ...quoteBody, user: USER, ...patch })
    assertRefused(await execute({ tokenIn: NATIVE, permit }), 'permit: ')
    assertRefused(await execute({ tokenIn: '0x0000000000000000000000000000000000000000', permit }), 'permit: ')
    assertRefused(await execute({ useNativeIn: true, permit }), 'permit: ')
    assertRefused(await execute({ tokenIn: usdc, tokenOut: weth, amountIn: '1000000000', useNativeIn: true }), 'useNativeIn: ')
    assertRefused(await execute({ unwrapNativeOut: true }), 'unwrapNativeOut: ')
    // What the rules allow: ETH in with useNativeIn false pays WETH (and may carry a permit); a wrap of WETH; an unwrap to ETH.
    const paysWeth = await execute({ tokenIn: NATIVE, useNativeIn: false, permit })
    assert.equal(paysWeth.status, 200, paysWeth.text)
    assert.equal(paysWeth.json.value, '0')
    const wraps = await execute({ useNativeIn: true })
    assert.equal(wraps.status, 200, wraps.text)
    assert.equal(wraps.json.value, quoteBody.amountIn)
    assert.equal((await execute({ tokenIn: usdc, tokenOut: weth, amountIn: '1000000000', unwrapNativeOut: true })).status, 200)
  })

  test('feeBps above the bound the document states for this server (0 without a fee recipient)', async () => {
    for (const url of ['/quote', '/execute']) {
      assertRefused(
        await post(url, { ...quoteBody, user: url === '/execute' ? USER : undefined, feeBps: 1 }, noFeeApp),
        'feeBps: must be <= 0',
      )
      assert.equal((await post(url, { ...quoteBody, user: url === '/execute' ? USER : undefined, feeBps: 0 }, noFeeApp)).status, 200)
    }
  })
})
