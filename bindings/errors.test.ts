import assert from 'node:assert/strict'
import { describe, it } from 'vitest'
import { createSyntheticMarket } from '../test/fixtures/syntheticMarket.ts'
import { useLoadedSolver } from '../test/fixtures/useLoadedSolver.ts'
import { SolverError } from './errors.ts'
import { type Backend, loadSolver } from './index.ts'
import type { SolverConfig, SolverQuoteRequest } from './types.ts'

// A solver error crosses either boundary typed: the Rust variant is `code`, its fields are
// properties, and SolverError reads them without looking at the message.

const market = createSyntheticMarket({ pools: 20, seed: 3 })
const trade = market.trade(1)
const config: SolverConfig = { nativeToken: '0x4200000000000000000000000000000000000006' }
const request: SolverQuoteRequest = {
  tokenIn: trade.tokenIn,
  tokenOut: trade.tokenOut,
  amountIn: trade.amountIn,
  slippageBps: 50,
  maxHops: 2,
}

async function refusal(call: Promise<unknown>): Promise<SolverError> {
  try {
    await call
  } catch (err) {
    assert.ok(err instanceof SolverError, String(err))
    return err
  }
  assert.fail('the call was accepted')
}

for (const backend of ['native', 'wasm'] as Backend[]) {
  describe(`${backend}: typed solver errors`, () => {
    const solver = useLoadedSolver({ config, pools: market.pools, backend, timeoutMs: 60_000 })

    it('InvalidInput carries the request field', async () => {
      const err = await refusal(solver.quote({ ...request, timeBudgetMs: 0 }))
      assert.deepEqual(
        [err.code, err.kind, err.field, err.detail],
        ['InvalidInput', 'invalid input', 'timeBudgetMs', '0 is outside 1..=10000'],
      )
      assert.equal(err.message, 'invalid input: timeBudgetMs: 0 is outside 1..=10000')
    })

    it('NoRoute and a malformed document', async () => {
      const unknown = await refusal(solver.quote({ ...request, tokenOut: '0x00000000000000000000000000000000000000a1' }))
      assert.deepEqual([unknown.code, unknown.kind, unknown.field], ['NoRoute', 'no route', undefined])
      const refused = await refusal(loadSolver({ ...config, defaultTimeBudgetMs: 0 }, { backend }))
      assert.deepEqual([refused.code, refused.field], ['InvalidInput', 'defaultTimeBudgetMs'])
    })
  })
}

describe('SolverError.from', () => {
  it('reads the code and fields a backend set; an error without a known code is internal', () => {
    const typed = SolverError.from(Object.assign(new Error('must be positive'), { code: 'InvalidInput', field: 'amountIn' }))
    assert.deepEqual([typed.kind, typed.field, typed.detail], ['invalid input', 'amountIn', 'must be positive'])
    // A message shaped like a classed one is not parsed: only `code` decides.
    const untyped = SolverError.from(new Error('no route: looks classed'))
    assert.deepEqual([untyped.code, untyped.kind], ['Internal', 'internal'])
  })

  // No kind of the spec's list reaches `Unsupported` through a backend any more (every kind has a
  // model: `no_kind_is_unsupported` in solver-rs); the variant stays for a kind listed before its
  // family, so its fields are read here as both backends attach them (`solver-rs/src/ffi`).
  it('Unsupported carries the pool and its kind', () => {
    const pool = '0x00000000000000000000000000000000000000b2'
    const err = SolverError.from(Object.assign(new Error('no model'), { code: 'Unsupported', pool, dex: 'MAVERICK_V2' }))
    assert.deepEqual([err.code, err.kind, err.pool, err.dex], ['Unsupported', 'unsupported', pool, 'MAVERICK_V2'])
  })
})
