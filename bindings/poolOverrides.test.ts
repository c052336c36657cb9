import assert from 'node:assert/strict'
import { test } from 'vitest'
import { SolverError } from './errors.ts'
import { createNativeSolver } from './nativeSolver.ts'
import type { PoolInput, Solver } from './types.ts'
import { createWasmSolver } from './wasmSolver.ts'

// A quote's `poolOverrides` through both bindings: the same plan byte for byte, the market left as
// it was, and a bad override thrown as invalid input naming the field.

const WETH = '0x4200000000000000000000000000000000000006'
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const DODO = '0xd000000000000000000000000000000000000001'
const dodo = (mtFeeRate: string): PoolInput => ({
  id: DODO,
  dex: 'DODO_V2',
  tokens: [WETH, USDC],
  state: {
    model: 'dodo_pmm',
    variant: 'dsp',
    i: '3000000000',
    k: '100000000000000000',
    baseReserve: (1000n * 10n ** 18n).toString(),
    quoteReserve: (3_000_000n * 10n ** 6n).toString(),
    baseTarget: (1000n * 10n ** 18n).toString(),
    quoteTarget: (3_000_000n * 10n ** 6n).toString(),
    rState: 0,
    lpFeeRate: '1000000000000000',
    mtFeeRate,
  },
})
const request = { tokenIn: WETH, tokenOut: USDC, amountIn: (10n ** 18n).toString(), slippageBps: 50, timeBudgetMs: 10_000 } as const
const taker = { ...request, poolOverrides: [{ poolId: DODO, mtFeeRate: '5000000000000000' }] }

test('poolOverrides: native and WASM answer the plan of a market at that rate, and the market keeps its own', async () => {
  const solvers: Solver[] = [createNativeSolver({ nativeToken: WETH }), await createWasmSolver({ nativeToken: WETH })]
  const atTakersRate = createNativeSolver({ nativeToken: WETH })
  try {
    await atTakersRate.applyBlock({ blockNumber: 7, upserts: [dodo('5000000000000000')] })
    const expected = await atTakersRate.quoteJson(request)
    for (const solver of solvers) {
      await solver.applyBlock({ blockNumber: 7, upserts: [dodo('0')] })
      const anonymous = await solver.quoteJson(request)
      assert.equal(await solver.quoteJson(taker), expected, solver.status().backend)
      assert.equal(await solver.quoteJson(request), anonymous, 'the next request sees the market as it was')
      assert.ok(BigInt(JSON.parse(expected).expectedAmountOut) < BigInt(JSON.parse(anonymous).expectedAmountOut))
      const refused = await solver
        .quote({ ...request, poolOverrides: [{ poolId: DODO, mtFeeRate: (10n ** 18n + 1n).toString() }] })
        .catch(SolverError.from)
      assert.ok(refused instanceof SolverError && refused.kind === 'invalid input' && refused.field === 'poolOverrides', String(refused))
    }
  } finally {
    await Promise.all([...solvers, atTakersRate].map((s) => s.close()))
  }
})
