// Native and WASM answer byte-identical JSON (and identical error messages) on every fixture:
// synthetic markets of every kind, many requests, before and after upserts and removes.
//
//   npx vitest run test/parity.test.ts      (after npm run build:native && npm run build:wasm)
//
// Every request runs with a generous time budget so both backends converge: a budget-stopped
// answer depends on the machine's speed, a converged one only on the inputs. The test asserts
// `metadata.stoppedBy === "converged"` on both sides before comparing bytes, so a request that
// stopped on the budget fails loudly instead of making the comparison meaningless.
import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { loadSolver, type Solver } from '../bindings/index.ts'
import type { DexId, PoolInput, SolverConfig, SolverQuoteRequest } from '../bindings/types.ts'
import { createPrng, type Prng } from './differential/createPrng.ts'
import { assertPlanReplays } from './fixtures/assertPlanReplays.ts'
import type { SyntheticFamilies } from './fixtures/syntheticFamilies.ts'
import { createSyntheticMarket, type SyntheticMarket } from './fixtures/syntheticMarket.ts'

const BUDGET_MS = 10_000
const MAX_UINT256 = ((1n << 256n) - 1n).toString()

type Outcome = { ok: true; json: string } | { ok: false; message: string }

async function outcome(call: Promise<string>): Promise<Outcome> {
  try {
    return { ok: true, json: await call }
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) }
  }
}

type Pair = { native: Solver; wasm: Solver }

async function openPair(config: SolverConfig): Promise<Pair> {
  return { native: await loadSolver(config, { backend: 'native' }), wasm: await loadSolver(config, { backend: 'wasm' }) }
}

/** Runs `call` on both backends, one after the other (never concurrently: the market is shared state). */
async function onBoth(pair: Pair, call: (s: Solver) => Promise<string>): Promise<[Outcome, Outcome]> {
  const native = await outcome(call(pair.native))
  const wasm = await outcome(call(pair.wasm))
  return [native, wasm]
}

const stats = { quotes: 0, routed: 0, failed: 0, simulations: 0 }

async function assertQuoteParity(pair: Pair, request: SolverQuoteRequest): Promise<void> {
  const [native, wasm] = await onBoth(pair, (s) => s.quoteJson(request))
  const label = JSON.stringify(request)
  stats.quotes++
  if (native.ok && wasm.ok) {
    stats.routed++
    for (const [side, json] of [
      ['native', native.json],
      ['wasm', wasm.json],
    ]) {
      const stoppedBy = (JSON.parse(json) as { metadata: { stoppedBy: string } }).metadata.stoppedBy
      assert.equal(stoppedBy, 'converged', `${side} stopped on its budget, so bytes may legitimately differ: ${label}`)
    }
  } else stats.failed++
  assert.deepEqual(wasm, native, `native and WASM differ on ${label}`)
}

async function assertCallParity(pair: Pair, label: string, call: (s: Solver) => Promise<string>): Promise<Outcome> {
  const [native, wasm] = await onBoth(pair, call)
  assert.deepEqual(wasm, native, `native and WASM differ on ${label}`)
  return native
}

function randomRequest(prng: Prng, market: SyntheticMarket, dexes: readonly DexId[], maxHops: number): SolverQuoteRequest {
  const hubs = market.tokens.filter((t) => t.hub)
  const pickToken = () => (prng.chance(0.75) ? prng.pick(hubs) : prng.pick(market.tokens))
  const tokenIn = pickToken()
  let tokenOut = pickToken()
  while (tokenOut === tokenIn) tokenOut = pickToken()
  const amounts = [
    () => '1',
    () => String(prng.int(2, 1000)),
    () => usd(tokenIn, 10 ** prng.int(0, 6)),
    () => usd(tokenIn, 10 ** prng.int(0, 6)),
    () => usd(tokenIn, 10 ** prng.int(1, 5)),
    () => usd(tokenIn, 10 ** prng.int(1, 5)),
    () => (10n ** 40n).toString(),
    () => MAX_UINT256,
  ]
  const request: SolverQuoteRequest = {
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    amountIn: prng.pick(amounts)(),
    slippageBps: prng.pick([0, 30, 50, 10_000]),
    maxHops: prng.int(1, maxHops),
    splitEnabled: prng.chance(0.6),
    enforcePoolDisjoint: prng.chance(0.5),
    timeBudgetMs: BUDGET_MS,
  }
  if (prng.chance(0.3)) {
    const count = prng.int(1, 4)
    request.allowedDexes = [...new Set(Array.from({ length: count }, () => prng.pick(dexes)))]
  }
  if (prng.chance(0.6)) request.gasPriceWei = prng.pick(['0', '1000000', '5000000000'])
  return request
}

function usd(token: { decimals: number; priceUsd: number }, value: number): string {
  const whole = BigInt(Math.max(1, Math.round((value / token.priceUsd) * 1e6)))
  return ((whole * 10n ** BigInt(token.decimals)) / 1_000_000n || 1n).toString()
}

/** Requests every backend must refuse, with the same message. */
function failingRequests(market: SyntheticMarket): SolverQuoteRequest[] {
  const weth = market.nativeToken
  const usdc = market.bySymbol('USDC').address
  const base: SolverQuoteRequest = {
    tokenIn: weth,
    tokenOut: usdc,
    amountIn: '1000000000000000000',
    slippageBps: 50,
    timeBudgetMs: BUDGET_MS,
  }
  return [
    { ...base, tokenOut: weth },
    { ...base, amountIn: '0' },
    { ...base, maxHops: 1.5 },
    { ...base, maxHops: 0 },
    { ...base, allowedDexes: [] },
    { ...base, allowedDexes: ['CURVE'] },
    { ...base, slippageBps: 10_001 },
    { ...base, timeBudgetMs: 0 },
    { ...base, tokenOut: '0x000000000000000000000000000000000000dead' },
    { ...base, tokenIn: '0x12' as `0x${string}` },
    { ...base, amountIn: '-1' },
    { ...base, amountIn: '1e18' },
    { ...base, amountIn: '115792089237316195423570985008687907853269984665640564039457584007913129639936' },
    { ...base, gasPriceWei: 'x' },
    { ...base, extra: true } as SolverQuoteRequest,
  ]
}

type Fixture = {
  name: string
  build: () => { market: SyntheticMarket; pools: PoolInput[] }
  config?: Partial<SolverConfig>
  requests: number
  maxHops: number
  /** Hub pairs whose $100k quotes must use these families' pools and replay exactly. */
  replays?: { pairs: [string, string][]; dexes: DexId[] }
}

const MODELS = ['constant_product', 'solidly', 'concentrated', 'sampled'] as const

// Each market is explored by seeded random requests; the default config uses 1-2 hops (3-hop
// split solves on the default 8 candidates can take many seconds to converge), a config with 4
// candidates and 2 pools per edge explores 3 hops.
const FIXTURES: Fixture[] = [
  { name: 'mixed, 100 pools, seed 1', build: () => whole(100, 1), requests: 80, maxHops: 2 },
  {
    name: 'mixed, 100 pools, seed 2, 4 candidates',
    build: () => whole(100, 2),
    config: { maxCandidates: 4, poolsPerEdge: 2 },
    requests: 60,
    maxHops: 3,
  },
  { name: 'mixed, 1,000 pools, seed 3', build: () => whole(1000, 3), requests: 40, maxHops: 2 },
  {
    name: 'every family, 300 pools, seed 5',
    build: () => whole(300, 5, 'all'),
    requests: 30,
    maxHops: 2,
    replays: {
      pairs: [
        ['USDC', 'DAI'],
        ['DAI', 'USDbC'],
        ['WETH', 'USDC'],
        ['cbBTC', 'cbETH'],
        ['cbETH', 'WETH'],
        ['USDC', 'cbBTC'],
      ],
      dexes: ['CURVE', 'GYROSCOPE_ECLP', 'DODO_V2', 'MAVERICK_V2', 'WOOFI'],
    },
  },
  ...MODELS.map((model): Fixture => ({
    name: `${model} only, from 600 pools, seed 4`,
    build: () => {
      const market = createSyntheticMarket({ pools: 600, seed: 4 })
      return { market, pools: market.pools.filter((p) => p.state.model === model) }
    },
    requests: 30,
    maxHops: 2,
  })),
]

function whole(pools: number, seed: number, families: SyntheticFamilies = 'default') {
  const market = createSyntheticMarket({ pools, seed, families })
  return { market, pools: market.pools }
}

describe('native and WASM give byte-identical answers', () => {
  afterAll(() => {
    console.log(
      `parity: ${stats.quotes} quotes compared (${stats.routed} routed and converged on both, ${stats.failed} refused identically), ${stats.simulations} simulations`,
    )
  })

  for (const fixture of FIXTURES) {
    describe(fixture.name, () => {
      let pair: Pair
      let market: SyntheticMarket
      let pools: PoolInput[]
      let dexes: DexId[]
      const prng = createPrng({ seed: fixture.name.length * 7919 })

      beforeAll(async () => {
        ;({ market, pools } = fixture.build())
        dexes = [...new Set(pools.map((p) => p.dex))]
        pair = await openPair({ nativeToken: market.nativeToken, ...fixture.config })
        const upserted = await assertCallParity(pair, 'initial upsert', (s) => s.upsertPools(pools).then(JSON.stringify))
        assert.deepEqual(upserted, { ok: true, json: JSON.stringify({ pools: pools.length }) })
      })
      afterAll(async () => {
        await pair.native.close()
        await pair.wasm.close()
      })

      it('quotes: random requests and the trades of every hop count', async () => {
        for (const hops of [1, 2, 3] as const) {
          if (hops > fixture.maxHops) continue
          for (const split of [true, false])
            await assertQuoteParity(
              pair,
              market.quoteRequest(hops, { splitEnabled: split, gasPriceWei: '10000000', timeBudgetMs: BUDGET_MS }),
            )
        }
        for (let i = 0; i < fixture.requests; i++) await assertQuoteParity(pair, randomRequest(prng, market, dexes, fixture.maxHops))
      })

      it.runIf(fixture.replays)('the families: quoted on their pairs, and every plan replays exactly', async () => {
        const { pairs, dexes: families } = fixture.replays!
        const used = new Set<DexId>()
        for (const [a, b] of pairs) {
          const [tokenIn, tokenOut] = [market.bySymbol(a), market.bySymbol(b)]
          const amountIn = usd(tokenIn, 100_000)
          const quote = {
            tokenIn: tokenIn.address,
            tokenOut: tokenOut.address,
            amountIn,
            slippageBps: 50,
            maxHops: 2,
            timeBudgetMs: BUDGET_MS,
          }
          await assertQuoteParity(pair, quote)
          const plan = await pair.native.quote(quote)
          await assertPlanReplays({ solver: pair.native, plan, request: quote, label: `${a}→${b}` })
          for (const leg of plan.routes.flatMap((r) => r.legs)) used.add(leg.dex)
        }
        assert.deepEqual(
          families.filter((dex) => !used.has(dex)),
          [],
          'every family is in some plan',
        )
      })

      it('refusals: identical error messages', async () => {
        for (const request of failingRequests(market)) {
          const [native, wasm] = await onBoth(pair, (s) => s.quoteJson(request))
          assert.equal(native.ok, false, `native accepted ${JSON.stringify(request)}`)
          assert.deepEqual(wasm, native)
          stats.quotes++
          stats.failed++
        }
      })

      it('simulations: identical on random pools and amounts', async () => {
        for (let i = 0; i < 20; i++) {
          const pool = prng.pick(pools)
          const tokenIn = pool.tokens[prng.int(0, 1)]
          const amountIn = prng.logBigint(1n, 10n ** 30n).toString() || '1'
          await assertCallParity(pair, `simulate ${pool.id}`, (s) =>
            s.simulate({ poolId: pool.id, tokenIn, amountIn }).then(JSON.stringify),
          )
          stats.simulations++
        }
      })

      it('after upserting 10% and removing pools, answers stay identical', async () => {
        const ids = new Set(pools.map((p) => p.id))
        const batch = market.upsertBatch(10).filter((p) => ids.has(p.id))
        await assertCallParity(pair, 'upsert 10%', (s) => s.upsertPools(batch).then(JSON.stringify))
        const removed = [prng.pick(pools).id, prng.pick(pools).id, '0x00000000000000000000000000000000000000aa']
        const result = await assertCallParity(pair, 'remove', (s) => s.removePools(removed).then(JSON.stringify))
        assert.ok(result.ok)
        // A batch with one bad pool is refused whole, with the same message.
        const bad = { ...batch[0], state: { model: 'constant_product', reserves: ['1', '-1'] } } as PoolInput
        const refused = await assertCallParity(pair, 'bad batch', (s) => s.upsertPools([...batch.slice(1), bad]).then(JSON.stringify))
        assert.equal(refused.ok, false)
        for (let i = 0; i < Math.ceil(fixture.requests / 2); i++)
          await assertQuoteParity(pair, randomRequest(prng, market, dexes, fixture.maxHops))
        const trade = market.trade(Math.min(2, fixture.maxHops) as 1 | 2)
        await assertQuoteParity(pair, {
          tokenIn: trade.tokenIn,
          tokenOut: trade.tokenOut,
          amountIn: trade.amountIn,
          slippageBps: 50,
          maxHops: 2,
          timeBudgetMs: BUDGET_MS,
        })
      })
    })
  }
})
