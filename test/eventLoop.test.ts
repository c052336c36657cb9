// A long solve does not block Node's event loop, on either backend: the native addon runs it as
// libuv async work, the WASM module in a worker thread. While a heavy quote runs (10,000 pools,
// 3 hops, split, large budget) the test counts setImmediate turns and timer callbacks; the loop
// must have turned many times before the quote resolved. Behavioural: no threshold on the
// quote's own latency.
//
//   node --import tsx --test test/eventLoop.test.ts   (after npm run build:native && npm run build:wasm)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadSolver, type Backend } from '../bindings/index.ts'
import { createSyntheticMarket } from './fixtures/syntheticMarket.ts'

/** Turns the loop must make during the solve. A blocked loop makes 0 or 1. */
const MIN_IMMEDIATE_TURNS = 50
const MIN_TIMER_TICKS = 5

const market = createSyntheticMarket({ pools: 10_000, seed: 3 })

describe('a long solve leaves the event loop free', () => {
  for (const backend of (process.env.EVENT_LOOP_BACKENDS?.split(',') ?? ['native', 'wasm']) as Backend[]) {
    it(`${backend}: the loop turns while a 10,000-pool 3-hop split quote runs`, async () => {
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
        const plan = await solver.quote({
          tokenIn: trade.tokenIn,
          tokenOut: trade.tokenOut,
          amountIn: trade.amountIn,
          slippageBps: 50,
          maxHops: 3,
          splitEnabled: true,
          gasPriceWei: '10000000',
          timeBudgetMs: 2_000,
        })
        const elapsedMs = performance.now() - started
        done = true
        clearInterval(interval)
        // Precondition: the solve really was long enough for a blocked loop to show.
        assert.ok(elapsedMs > 1, `the quote took only ${elapsedMs} ms`)
        assert.ok(BigInt(plan.expectedAmountOut) > 0n)
        assert.ok(immediateTurns >= MIN_IMMEDIATE_TURNS, `only ${immediateTurns} setImmediate turns in ${elapsedMs.toFixed(1)} ms`)
        assert.ok(timerTicks >= MIN_TIMER_TICKS, `only ${timerTicks} timer ticks in ${elapsedMs.toFixed(1)} ms`)
        console.log(`${backend}: quote ${elapsedMs.toFixed(1)} ms (${plan.metadata.stoppedBy}); loop turned ${immediateTurns} times, ${timerTicks} timer ticks`)
      } finally {
        await solver.close()
      }
    })
  }
})
