import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { PoolInput } from './types.ts'
import { createWasmSolver } from './wasmSolver.ts'

// A WASM instance that trapped is never called again: its worker exits, a new one is started with
// the same market and block, and the calls that were waiting are answered by it.

const WETH = '0x4200000000000000000000000000000000000006'
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const pool = (n: number, usdc: bigint): PoolInput => ({
  id: `0xa00000000000000000000000000000000000000${n}`,
  dex: 'UNIV2',
  tokens: [WETH, USDC],
  state: { model: 'constant_product', reserves: [(1000n * 10n ** 18n).toString(), (usdc * 10n ** 6n).toString()] },
})
const request = { tokenIn: WETH, tokenOut: USDC, amountIn: (10n ** 18n).toString(), slippageBps: 50 } as const
const trappingWorker = new URL('../test/fixtures/trappingWasmWorker.mjs', import.meta.url)

test('a trap restarts the instance with the same market and block; the call that trapped fails, the waiting ones are answered', async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker, restartDelayMs: 1 })
  try {
    await solver.applyBlock({ blockNumber: 41, upserts: [pool(1, 3_000_000n), pool(2, 3_100_000n), pool(3, 2_900_000n)] })
    await solver.applyBlock({ blockNumber: 42, upserts: [pool(2, 3_050_000n)], removals: [pool(3, 0n).id] })
    const before = await solver.quoteJson(request)
    assert.equal(JSON.parse(before).blockNumber, 42)
    assert.deepEqual(solver.status(), { backend: 'wasm', state: 'ready', restarts: 0 })

    const trapped = solver.simulate({ poolId: 'trap', tokenIn: WETH, amountIn: '1' })
    const waiting = [solver.quoteJson(request), solver.applyBlock({ blockNumber: 43, upserts: [pool(1, 3_010_000n)] }), solver.quoteJson(request)]
    await assert.rejects(trapped, (e: Error) => /trapped \(.*memory access out of bounds.*\); it is being restarted/.test(e.message))
    assert.equal(solver.status().state, 'restarting')
    const [again, applied, after] = await Promise.all(waiting)
    assert.equal(again, before, 'the rebuilt market answers byte for byte what the old one did')
    assert.deepEqual(applied, { pools: 2, rejected: [] })
    assert.equal(JSON.parse(after as string).blockNumber, 43, 'calls sent during the restart ran on the new instance, in order')
    assert.deepEqual(solver.status(), { backend: 'wasm', state: 'ready', restarts: 1 })

    // The simulate of a real pool still works on the new instance; a second trap restarts again.
    assert.ok(BigInt((await solver.simulate({ poolId: pool(1, 0n).id, tokenIn: WETH, amountIn: (10n ** 15n).toString() })).amountOut) > 0n)
    await assert.rejects(solver.simulate({ poolId: 'trap', tokenIn: WETH, amountIn: '1' }))
    assert.equal(JSON.parse(await solver.quoteJson(request)).blockNumber, 43)
    assert.equal(solver.status().restarts, 2)
  } finally {
    await solver.close()
  }
})

test('pools changed without a block are rebuilt without one', async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker, restartDelayMs: 1 })
  try {
    await solver.upsertPools([pool(1, 3_000_000n), pool(2, 3_100_000n)])
    await solver.removePools([pool(2, 0n).id])
    const before = await solver.quoteJson(request)
    await assert.rejects(solver.simulate({ poolId: 'trap', tokenIn: WETH, amountIn: '1' }))
    assert.equal(await solver.quoteJson(request), before)
    assert.equal(JSON.parse(before).blockNumber, null)
  } finally {
    await solver.close()
  }
})
