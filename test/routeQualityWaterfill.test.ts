// Our plans against Fynd's water-filling over the same pools (`solver.waterfill`, its tree
// replayed exactly on our models; docs/solver-optimizer.md, *Water-filling reference*), on fixed
// seeds of the synthetic markets of 100, 1,000 and 10,000 pools, 1- to 3-hop trades from 0.01× to
// 100× of a typical size (the quality benchmark's trades): issue 8 asks for a plan at least as good
// on every trade (within TIE_BPS of the bound, in our plan format: `belowWaterfill` in
// test/fixtures/routeQualityOpenMisses.ts),
// and never below the best single path; water-filling's tree replays exactly through the public
// interface. Both solves get a large time budget, so the outputs compared do not depend on the
// machine's speed. A failure lists every trade that misses, with both outputs and the bound; the
// trades below water-filling would be listed in the fixture (any other one fails, so does a listed
// one fixed; none is listed today).
//
//   npx vitest run test/routeQualityWaterfill.test.ts   (after npm run build:native)
import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import type { Solver } from '../bindings/index.ts'
import type { SolverPlan, SolverQuoteRequest, WaterfillPlan } from '../bindings/types.ts'
import { gapBps } from './fixtures/gapBps.ts'
import { createSyntheticMarket } from './fixtures/syntheticMarket.ts'
import { useLoadedSolver } from './fixtures/useLoadedSolver.ts'
import { assertOpenMisses, belowWaterfill, syntheticWaterfillOpen } from './fixtures/routeQualityOpenMisses.ts'

const SIZES = [0.01, 0.1, 1, 10, 100]
const TYPICAL_USD = 10_000

/**
 * The water-filling answer checked through the public interface: every token spends exactly what
 * reached it (amountIn at tokenIn), tokenOut receives expectedAmountOut, and each swap on a pool the
 * tree uses once pays what `simulate` says that pool pays on the untouched market.
 */
async function assertReplays(solver: Solver, plan: WaterfillPlan, request: SolverQuoteRequest, label: string) {
  const held = new Map<string, bigint>([[request.tokenIn.toLowerCase(), BigInt(plan.amountIn)]])
  const uses = new Map<string, number>()
  for (const swap of plan.swaps) uses.set(swap.poolId, (uses.get(swap.poolId) ?? 0) + 1)
  for (const swap of plan.swaps) {
    const [from, to] = [swap.tokenIn.toLowerCase(), swap.tokenOut.toLowerCase()]
    const left = (held.get(from) ?? 0n) - BigInt(swap.amountIn)
    assert.ok(left >= 0n, `${label}: a swap spends more ${from} than reached it`)
    held.set(from, left)
    held.set(to, (held.get(to) ?? 0n) + BigInt(swap.amountOut))
    if (uses.get(swap.poolId) === 1) {
      const alone = await solver.simulate({ poolId: swap.poolId, tokenIn: swap.tokenIn, amountIn: swap.amountIn })
      assert.equal(alone.amountOut, swap.amountOut, `${label}: swap on ${swap.poolId}`)
    }
  }
  assert.equal(held.get(request.tokenOut.toLowerCase()), BigInt(plan.expectedAmountOut), `${label}: what reached tokenOut`)
  held.delete(request.tokenOut.toLowerCase())
  assert.ok(
    [...held.values()].every((v) => v === 0n),
    `${label}: a middle token kept a balance`,
  )
}

for (const pools of [100, 1000, 10_000]) {
  describe(`our plans against water-filling on ${pools} synthetic pools (seed 7)`, () => {
    const market = createSyntheticMarket({ pools, seed: 7 })
    const solver = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools, timeoutMs: 120_000 })

    it(
      'pays at least what water-filling pays, and never less than the best single path, on every trade',
      { timeout: 300_000 },
      async () => {
        const misses: string[] = []
        const below: { label: string; detail: string }[] = []
        let compared = 0
        for (const hops of [1, 2, 3] as const) {
          for (const size of SIZES) {
            const request = market.quoteRequest(hops, { usd: TYPICAL_USD * size, timeBudgetMs: 10_000 })
            const label = `${pools} pools ${hops}-hop ${size}×`
            let plan: SolverPlan
            try {
              plan = await solver.quote(request)
            } catch (error) {
              // Nothing can take the trade (100× on the 100-pool market's one direct pair): water-filling must agree.
              await assert.rejects(solver.waterfill(request), /no route/, `${label}: we found no route but water-filling did`)
              assert.match((error as Error).message, /no route/)
              continue
            }
            const ours = BigInt(plan.expectedAmountOut)
            const single = BigInt((await solver.quote({ ...request, splitEnabled: false })).expectedAmountOut)
            const waterfill = await solver.waterfill(request)
            const wf = BigInt(waterfill.expectedAmountOut)
            await assertReplays(solver, waterfill, request, label)
            compared++
            if (ours < single) misses.push(`${label}: ours ${ours} below the best single path ${single}`)
            const bound = BigInt(plan.metadata.upperBound ?? '0')
            const asRoutes = waterfill.routesAmountOut === null ? null : BigInt(waterfill.routesAmountOut)
            const { miss } = belowWaterfill({ bound, ours, tree: wf, asRoutes })
            if (miss !== null) below.push({ label, detail: `${miss} (${waterfill.strategy}, longest walk ${waterfill.longestWalk})` })
          }
        }
        assert.ok(compared >= 14, `only ${compared} trades routed`)
        assert.deepEqual(misses, [], `${misses.length} trade(s) miss:\n${misses.join('\n')}`)
        assertOpenMisses({
          misses: below,
          open: syntheticWaterfillOpen.filter((l) => l.startsWith(`${pools} pools `)),
          what: 'below water-filling',
        })
      },
    )
  })
}

describe('water-filling on both backends', () => {
  const market = createSyntheticMarket({ pools: 1000, seed: 7 })
  const native = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools, timeoutMs: 120_000 })
  const wasm = useLoadedSolver({ config: { nativeToken: market.nativeToken }, pools: market.pools, backend: 'wasm', timeoutMs: 120_000 })

  it('answers the same tree, to the wei, natively and in WASM', { timeout: 120_000 }, async () => {
    for (const hops of [1, 2, 3] as const) {
      const request = market.quoteRequest(hops, { usd: TYPICAL_USD * 10, timeBudgetMs: 10_000 })
      assert.deepEqual(await wasm.waterfill(request), await native.waterfill(request), `${hops}-hop`)
    }
  })
})
