// Solving does not block Node's event loop, on either backend: the native addon runs it as libuv
// async work, the WASM module in a worker thread. While heavy quotes run (16 at once on 10,000
// pools, 3 hops, split, large budget: tens of milliseconds in all, now that one takes a few) the
// test counts setImmediate turns and timer callbacks; the loop must have kept turning until the
// last quote resolved. A blocking backend would run all 16 solves inside the calls, before the
// loop could turn at all. Behavioural: no threshold on the quotes' own latency.
//
//   npx vitest run test/eventLoop.test.ts   (after npm run build:native && npm run build:wasm)
import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { loadSolver, type Backend } from '../bindings/index.ts'
import { createSyntheticMarket } from './fixtures/syntheticMarket.ts'

/**
 * Turns the loop must make during the solves. A blocked loop makes 0 or 1; a free one makes
 * hundreds on a quiet machine, and far fewer on a loaded one (the main thread then competes with
 * the solver's threads and with other processes for the cores), hence bars well above 1 but not
 * above what a busy 2-core machine gives.
 */
const MIN_IMMEDIATE_TURNS = 10
const MIN_TIMER_TICKS = 3
/** Quotes sent at once (each with its own amount). */
const CONCURRENT_QUOTES = 16

const market = createSyntheticMarket({ pools: 10_000, seed: 3 })

describe('solving leaves the event loop free', () => {
  for (const backend of (process.env.EVENT_LOOP_BACKENDS?.split(',') ?? ['native', 'wasm']) as Backend[]) {
    it(`${backend}: the loop turns while 16 10,000-pool 3-hop split quotes run`, async () => {
      const solver = await loadSolver({ nativeToken: market.nativeToken }, { backend })
      try {
        await solver.upsertPools(market.pools)
        const trade = market.trade(3)
        let done = false
        let immediateTurns = 0
        let timerTicks = 0
        const spin = () => {
          if (done) return
          immediateTurns++
          setImmediate(spin)
        }
        const interval = setInterval(() => timerTicks++, 1)
        setImmediate(spin)
        const started = performance.now()
        const plans = await Promise.all(
          Array.from({ length: CONCURRENT_QUOTES }, (_, k) =>
            solver.quote({
              tokenIn: trade.tokenIn,
              tokenOut: trade.tokenOut,
              amountIn: ((BigInt(trade.amountIn) * BigInt(100 + k)) / 100n).toString(),
              slippageBps: 50,
              maxHops: 3,
              splitEnabled: true,
              gasPriceWei: '10000000',
              timeBudgetMs: 2_000,
            }),
          ),
        )
        const elapsedMs = performance.now() - started
        done = true
        clearInterval(interval)
        // Precondition: the solves really took long enough for a blocked loop to show.
        assert.ok(elapsedMs > 2 * MIN_TIMER_TICKS, `the quotes took only ${elapsedMs} ms`)
        for (const plan of plans) assert.ok(BigInt(plan.expectedAmountOut) > 0n)
        assert.ok(immediateTurns >= MIN_IMMEDIATE_TURNS, `only ${immediateTurns} setImmediate turns in ${elapsedMs.toFixed(1)} ms`)
        assert.ok(timerTicks >= MIN_TIMER_TICKS, `only ${timerTicks} timer ticks in ${elapsedMs.toFixed(1)} ms`)
        const plan = plans[0] as (typeof plans)[number]
        console.log(
          `${backend}: ${CONCURRENT_QUOTES} quotes ${elapsedMs.toFixed(1)} ms (first ${plan.metadata.stoppedBy}); loop turned ${immediateTurns} times, ${timerTicks} timer ticks`,
        )
      } finally {
        await solver.close()
      }
    })
  }
})
