import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, getAddress } from 'viem'
import { loadSolver, type Solver } from '../../bindings/index.ts'
import type { DexId, PoolInput } from '../../bindings/types.ts'
import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { createQuoteService, type QuoteService } from './createQuoteService.ts'
import { InvalidQuoteRequestError, NoRouteError } from './errors.ts'
import type { QuoteRequest } from './quoteTypes.ts'

// The quote service on the native solver and a small hand-made market (no chain): what a valid
// request that the engine cannot take literally is answered (maxHops deeper than the search, a
// 100 % fee, allowedDexes with no pool here, no route under the request's own restrictions).

const token = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const WETH = token(0xee)
const [A, B, C, D, ISLAND_1, ISLAND_2] = [1, 2, 3, 4, 5, 6].map((n) => token(0xa0 + n))
const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const ONE = 10n ** 18n

/** A chain WETH → A → B → C → D (only 4 hops reach D), a WETH/A direct pool, and an island pair. */
const pairs: [Address, Address][] = [
  [WETH, A],
  [A, B],
  [B, C],
  [C, D],
  [ISLAND_1, ISLAND_2],
]
const pools: PoolInput[] = pairs.map(([x, y], i) => {
  const [t0, t1] = x.toLowerCase() < y.toLowerCase() ? [x, y] : [y, x]
  return {
    id: token(0x1000 + i).toLowerCase(),
    dex: 'UNIV2' as DexId,
    tokens: [t0, t1],
    state: { model: 'constant_product', reserves: [(1000n * ONE).toString(), (1000n * ONE).toString()] },
  }
})

let solver: Solver
let service: QuoteService

beforeAll(async () => {
  solver = await loadSolver({ nativeToken: WETH }, { backend: 'native' })
  await solver.applyBlock({ blockNumber: 7, upserts: pools })
  const snapshots = pools.map(
    (input) => ({ ref: { id: input.id, dex: input.dex }, input, refreshEveryBlock: false }) as unknown as PoolSnapshot,
  )
  const market = {
    assertFresh: () => {},
    encodeLeg: (poolId: string) => ({ kind: 'v2_direct' as const, pool: getAddress(poolId), feeBps: 30 }),
    pools: () => snapshots,
  }
  service = createQuoteService({ solver, market, chainId: 8453, weth: WETH, router: token(0x7777), getGasPriceWei: async () => 0n })
})
afterAll(async () => {
  await solver?.close()
})

const request = (patch: Partial<QuoteRequest> = {}): QuoteRequest => ({
  chainId: 8453,
  tokenIn: WETH,
  tokenOut: B,
  amountIn: ONE.toString(),
  slippageBps: 50,
  ...patch,
})

test('maxHops deeper than the engine searches its deepest (4) and says so; any integer >= 1 is valid', async () => {
  for (const maxHops of [5, 1e300, Number.MAX_SAFE_INTEGER + 1]) {
    const plan = await service.quote(request({ tokenOut: D, maxHops }))
    assert.equal(plan.metadata.maxHopsSearched, 4, String(maxHops))
    assert.equal(plan.routes[0].legs.length, 4, 'the 4-hop route to D was found')
  }
  assert.equal((await service.quote(request({ maxHops: 2 }))).metadata.maxHopsSearched, 2)
  assert.equal((await service.quote(request())).metadata.maxHopsSearched, 3, 'the default depth')
  await assert.rejects(
    service.quote(request({ tokenOut: D, maxHops: 3 })),
    (e: unknown) => e instanceof NoRouteError && /within 3 hops/.test(e.message),
  )
  for (const maxHops of [0, 1.5, -1]) {
    await assert.rejects(
      service.quote(request({ maxHops })),
      (e: unknown) => e instanceof InvalidQuoteRequestError && e.field === 'maxHops' && /must be an integer >= 1/.test(e.message),
    )
  }
})

test('a 100 % fee is refused as such (feeBps), not as an amount too small', async () => {
  await assert.rejects(
    service.quote(request({ feeBps: 10_000 })),
    (e: unknown) =>
      e instanceof InvalidQuoteRequestError &&
      e.field === 'feeBps' &&
      /takes the whole output .*the recipient would receive nothing/.test(e.message),
  )
  const plan = await service.quote(request({ feeBps: 9_999 }))
  assert.ok(BigInt(plan.expectedAmountOut) > 0n)
})

test('allowedDexes naming only kinds with no pool here is a no route naming allowedDexes and listing the kinds present', async () => {
  await assert.rejects(
    service.quote(request({ allowedDexes: ['AERODROME_V2LIKE', 'UNIV3'] })),
    (e: unknown) =>
      e instanceof NoRouteError &&
      e.message === 'allowedDexes: no pool of AERODROME_V2LIKE, UNIV3 on this market (kinds with pools here: UNIV2)',
  )
  // One kind present is enough to search.
  assert.equal((await service.quote(request({ allowedDexes: ['UNIV3', 'UNIV2'] }))).routes[0].legs[0].dex, 'UNIV2')
})

test('no route says what the request itself narrowed (allowedDexes, no split, native asset routed as WETH)', async () => {
  await assert.rejects(
    service.quote(request({ tokenOut: ISLAND_1, allowedDexes: ['UNIV2'], splitEnabled: false })),
    (e: unknown) =>
      e instanceof NoRouteError &&
      /^no path .* within 3 hops .*; only UNIV2 pools were searched \(allowedDexes\); splitting was off \(splitEnabled: false\)$/.test(
        e.message,
      ),
  )
  await assert.rejects(
    service.quote(request({ tokenIn: NATIVE, tokenOut: ISLAND_1 })),
    (e: unknown) => e instanceof NoRouteError && e.message.endsWith(`; the native asset is routed as ${WETH}`),
  )
  await assert.rejects(
    service.quote(request({ tokenOut: ISLAND_1 })),
    (e: unknown) => e instanceof NoRouteError && !e.message.includes(';'),
  )
})

test('a split quote reports the certified bound and its gap; the routed output (before the fee) never exceeds the bound', async () => {
  const plan = await service.quote(request({ amountIn: (50n * ONE).toString() }))
  const { upperBound, gapBps } = plan.metadata as { upperBound?: string; gapBps?: number }
  assert.ok(upperBound !== undefined && typeof gapBps === 'number', JSON.stringify(plan.metadata))
  const routed = BigInt(plan.expectedAmountOut) + BigInt(plan.feeBreakdown?.integratorFeeAmount ?? '0')
  assert.ok(routed <= BigInt(upperBound), `routed ${routed} above the bound ${upperBound}`)
  // One path (WETH → A → B) and no other venue: the plan is the optimum, to the bound's rounding.
  assert.ok(gapBps >= 0 && gapBps < 0.01, `gap ${gapBps} bps`)
  const unsplit = await service.quote(request({ amountIn: (50n * ONE).toString(), splitEnabled: false }))
  assert.equal((unsplit.metadata as { upperBound?: string }).upperBound, undefined, 'no bound without a split')
})

test('ETH ↔ WETH: a plan of no routes (the router wraps or unwraps), the fee taken from it, no slippage; a 100 % fee and ETH → ETH refused', async () => {
  const wrapping = createQuoteService({
    solver,
    market: {
      assertFresh: () => {},
      encodeLeg: () => {
        throw new Error('a wrap encodes no pool leg')
      },
      pools: () => [],
      freshness: () => ({
        blockNumber: 7n,
        blockTimestamp: 0n,
        blockHash: '0x',
        ageMs: 0,
        stale: false,
        lastError: undefined,
        reorgs: 0,
      }),
    },
    chainId: 8453,
    weth: WETH,
    router: token(0x7777),
    getGasPriceWei: async () => 1_000_000n,
  })
  const unwrap = await wrapping.quote(request({ tokenIn: WETH, tokenOut: NATIVE, feeBps: 25, allowedDexes: ['CURVE'] }))
  const fee = (ONE * 25n) / 10_000n
  assert.equal(unwrap.expectedAmountOut, (ONE - fee).toString())
  assert.equal(unwrap.minAmountOut, unwrap.expectedAmountOut, 'nothing can move: no slippage taken')
  assert.equal(unwrap.feeBreakdown.integratorFeeAmount, fee.toString())
  assert.deepEqual(unwrap.routes, [], 'no venue: the router withdraws for the recipient')
  assert.deepEqual([unwrap.nativeIn, unwrap.nativeOut, unwrap.blockNumber], [false, true, 7])
  assert.ok(unwrap.gasEstimate.gasUnits > 21_000)
  assert.equal(unwrap.gasEstimate.gasCostWei, (BigInt(unwrap.gasEstimate.gasUnits) * 1_000_000n).toString())
  const wrap = await wrapping.quote(request({ tokenIn: NATIVE, tokenOut: WETH }))
  assert.deepEqual([wrap.nativeIn, wrap.nativeOut, wrap.expectedAmountOut], [true, false, ONE.toString()])
  await assert.rejects(
    wrapping.quote(request({ tokenIn: NATIVE, tokenOut: WETH, feeBps: 10_000 })),
    (e: unknown) => e instanceof InvalidQuoteRequestError && e.field === 'feeBps',
  )
  await assert.rejects(
    wrapping.quote(request({ tokenIn: NATIVE, tokenOut: '0x0000000000000000000000000000000000000000' })),
    (e: unknown) => e instanceof NoRouteError && /must differ from tokenIn/.test(e.message),
  )
})
