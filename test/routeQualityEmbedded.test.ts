// Route quality on the embedded market: the seeded devnet the service runs on, read by the
// service's own market state (`startSwapService` as `npm start` wires it), its solver quoted
// directly. Every ordered pair of its tokens, 1- to 3-hop (`embeddedMarketTrades`), 0.01× to 100×
// of $10,000: our plan is never above the bound nor below the best single path, issue 8's goal holds
// per hop count on every size (median gap to the certified bound ≤ 1 bps, worst ≤ 5 bps but for the
// trades `embeddedGapOpen` lists, where WOOFi's documented loose bound is the gap), and our
// plan pays at least what Fynd's water-filling over the same pools pays (within TIE_BPS of the bound,
// in our plan format: `belowWaterfill` in test/fixtures/routeQualityOpenMisses.ts). A large
// time budget makes every quote the converged one, so nothing here depends on the machine's speed.
// The seeded Curve pools are on the market under the same goals (their wide gaps were the bound's
// solve stalling on a rounding of the pooled term's Hessian, docs/solver-optimizer.md, *Venues of
// more than two tokens*); so are its three twocrypto-ng pools, priced by samples of their own get_dy,
// whose sampled curves' corners leave three listed trades open (issue 24). The ten prop AMM
// venues are not: the saved chain holds them stale (no keeper runs here), so the market skips them. One re-pricing by the keeper (which also posts
// WOOFi's oracle heartbeat) puts them on it, and then the goals do not hold. With the prop AMM
// kinds left out of allowedDexes (the one allowed venue the re-pricing changes is then WOOFi's
// vault, its oracle fresh again), 1-hop WETH→USDC, WETH→cbBTC and WETH→cbETH trades were 79 to
// 198 bps below their bound: the vault's curve priced the plan's own tokens at the Chainlink
// bound's far ends, now at their prices (within 0.97 bps, `OneWay`, docs/solver-optimizer.md).
// With them allowed (measured before that), medians of 82 (2-hop) and 1,493 bps (3-hop) and
// plans up to 2,344 bps below water-filling (open in issue 24, not re-measured since the bound's dual moves
// the copies a linear side joins at its corner together: docs/solver-optimizer.md, *The vault's linear
// side*, and `convex/solve_tests.rs` on these pools one keeper tick later).
// MAVERICK_V2 and LUNARBASE are allowed (their bounds are tight for runs of swaps: the active tick
// at the pool's own price; the curve that follows LunarBase's punishment), but only MAVERICK_V2's
// pools are on this market: LUNARBASE's venues are stale prop AMMs like the rest. The seed's GYROSCOPE_ECLP
// and DODO_V2 pools are left out (allowedDexes): with them every plan stays within its certified
// bound, but the gap goals do not hold on 2- and 3-hop trades (E-CLPs: 2 and 39 trades above 5
// bps, up to 1,498 bps; DODO: 59 3-hop trades, 23 at 9,000 bps or more), water-filling's gap the same:
// the bound's dual stops unconverged on the corners of their curves' first stretches (DODO's first
// 64 raw units pay its rounding slack, the E-CLP's first few thousand its highest price). Open in issues 22 and 24 (docs/dex-kinds.md,
// DODO_V2 and GYROSCOPE_ECLP, "Route quality"); their certification is `solver-rs`'s (the
// families' bound tests, the exhaustive test).
//
//   npx vitest run test/routeQualityEmbedded.test.ts   (after npm run build:native)
import assert from 'node:assert/strict'
import { afterAll, beforeAll, describe, it } from 'vitest'
import type { DexId, SolverQuoteRequest } from '../bindings/types.ts'
import { adapterRegistry } from '../src/adapters/registry.ts'
import { loadConfig } from '../src/config/loadConfig.ts'
import { type SwapService, startSwapService } from '../src/startSwapService.ts'
import { embeddedMarketTrades, type EmbeddedTrade } from './fixtures/embeddedMarketTrades.ts'
import { gapBps } from './fixtures/gapBps.ts'
import { assertOpenMisses, belowWaterfill, embeddedGapOpen, embeddedWaterfillOpen } from './fixtures/routeQualityOpenMisses.ts'

const SIZES = [0.01, 0.1, 1, 10, 100]
const ALLOWED = (Object.keys(adapterRegistry) as DexId[]).filter((dex) => !['GYROSCOPE_ECLP', 'DODO_V2'].includes(dex))

type Quoted = {
  trade: EmbeddedTrade
  label: string
  bound: bigint
  ours: bigint
  single: bigint
  waterfill: bigint
  asRoutes: bigint | null
  strategy: string
  request: SolverQuoteRequest
}

describe('route quality on the embedded market', () => {
  let service: SwapService
  const quoted: Quoted[] = []
  beforeAll(async () => {
    const config = loadConfig({ API_KEYS: 'quality-key-0123456789abcdef', PORT: '0' })
    service = await startSwapService({ config, logger: false, onDiscoveryProgress: () => {} })
    const market = service.devnet?.market
    assert.ok(market, 'the service did not start the embedded chain')
    for (const trade of embeddedMarketTrades({ market, sizes: SIZES })) {
      const request: SolverQuoteRequest = {
        tokenIn: trade.tokenIn,
        tokenOut: trade.tokenOut,
        amountIn: trade.amountIn,
        slippageBps: 50,
        maxHops: trade.hops,
        timeBudgetMs: 10_000,
        allowedDexes: ALLOWED,
      }
      const label = `${trade.pair} ${trade.hops}-hop ${trade.size}×`
      const plan = await service.solver.quote(request)
      const single = await service.solver.quote({ ...request, splitEnabled: false })
      const waterfill = await service.solver.waterfill(request)
      assert.ok(plan.metadata.upperBound !== undefined, `${label}: no bound in the metadata`)
      quoted.push({
        trade,
        label,
        bound: BigInt(plan.metadata.upperBound),
        ours: BigInt(plan.expectedAmountOut),
        single: BigInt(single.expectedAmountOut),
        waterfill: BigInt(waterfill.expectedAmountOut),
        asRoutes: waterfill.routesAmountOut === null ? null : BigInt(waterfill.routesAmountOut),
        strategy: `${waterfill.strategy}, longest walk ${waterfill.longestWalk}`,
        request,
      })
    }
  }, 600_000)
  afterAll(async () => {
    // ROUTE_QUALITY_PRINT=1 prints every trade's gap to the bound (the before/after of a change).
    if (process.env.ROUTE_QUALITY_PRINT)
      console.log(
        quoted.map((q) => `${q.label}: gap ${gapBps(q.bound, q.ours)} bps, water-filling ${gapBps(q.bound, q.waterfill)} bps`).join('\n'),
      )
    await service?.fastify.close()
  })

  it('routes every trade, never above the bound nor below the best single path', () => {
    assert.equal(quoted.length, embeddedMarketTrades({ market: service.devnet!.market, sizes: SIZES }).length)
    const misses = quoted.flatMap((q) => [
      ...(q.ours > q.bound ? [`${q.label}: ours ${q.ours} above the bound ${q.bound}`] : []),
      ...(q.ours < q.single ? [`${q.label}: ours ${q.ours} below the best single path ${q.single}`] : []),
    ])
    assert.deepEqual(misses, [], `${misses.length} trade(s) miss:\n${misses.join('\n')}`)
  })

  it('pays at least what water-filling over the same pools pays, in our plan format, on every trade but the listed ones', () => {
    const below = quoted.map((q) => ({ q, ...belowWaterfill({ bound: q.bound, ours: q.ours, tree: q.waterfill, asRoutes: q.asRoutes }) }))
    const treeOnly = below.flatMap(({ q, treeOnly }) => (treeOnly === null ? [] : [`${q.label}: ${treeOnly} (${q.strategy})`]))
    if (treeOnly.length > 0) console.log(`water-filling's tree pays more by its merged swaps only:\n${treeOnly.join('\n')}`)
    const misses = below.flatMap(({ q, miss }) => (miss === null ? [] : [{ label: q.label, detail: `${miss} (${q.strategy})` }]))
    assertOpenMisses({ misses, open: embeddedWaterfillOpen, what: 'below water-filling', exact: false })
  })

  for (const hops of [1, 2, 3] as const) {
    it(`${hops}-hop trades: median gap ≤ 1 bps, worst ≤ 5 bps`, () => {
      const group = quoted.filter((q) => q.trade.hops === hops)
      assert.ok(group.length > 0)
      const gaps = group.map((q) => gapBps(q.bound, q.ours)).sort((a, b) => a - b)
      const median = gaps[gaps.length >> 1] as number
      assert.ok(median <= 1, `median ${median} bps over ${group.length} trades`)
      const describe = (q: Quoted) =>
        `${q.label}: gap ${gapBps(q.bound, q.ours)} bps (ours ${q.ours}, bound ${q.bound}, water-filling ${gapBps(q.bound, q.waterfill)} bps)`
      const over = group.filter((q) => gapBps(q.bound, q.ours) > 5).map((q) => ({ label: q.label, detail: describe(q) }))
      const open = embeddedGapOpen.filter((label) => group.some((q) => q.label === label))
      assertOpenMisses({ misses: over, open, what: 'above 5 bps', exact: false })
    })
  }
})
