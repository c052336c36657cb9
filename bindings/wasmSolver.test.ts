import assert from 'node:assert/strict'
import { test } from 'vitest'
import { createNativeSolver } from './nativeSolver.ts'
import type { PoolInput, Solver } from './types.ts'
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
// A budget that a wait for a restart does not spend (a quote's budget runs from when it was made).
const request = { tokenIn: WETH, tokenOut: USDC, amountIn: (10n ** 18n).toString(), slippageBps: 50, timeBudgetMs: 10_000 } as const
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
    const waiting = [
      solver.quoteJson(request),
      solver.applyBlock({ blockNumber: 43, upserts: [pool(1, 3_010_000n)] }),
      solver.quoteJson(request),
    ]
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

test('a request that made the instance trap twice is quarantined: refused at once, and every other request is answered without another rebuild', async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker, restartDelayMs: 1 })
  try {
    await solver.applyBlock({ blockNumber: 7, upserts: [pool(1, 3_000_000n), pool(2, 3_100_000n)] })
    const before = await solver.quoteJson(request)
    const poison = { poolId: 'trap', tokenIn: WETH, amountIn: '1' } as const
    await assert.rejects(solver.simulate(poison), /trapped/)
    assert.equal(await solver.quoteJson(request), before)
    await assert.rejects(solver.simulate(poison), /trapped/)
    assert.equal(await solver.quoteJson(request), before, 'answered once the second restart is done')
    assert.equal(solver.status().restarts, 2)
    // Third time: not sent, so nothing traps and nothing is rebuilt.
    await assert.rejects(solver.simulate(poison), (e: Error) =>
      /^internal: this simulate request made the WASM solver fail 2 times .*quarantined/.test(e.message),
    )
    assert.deepEqual(solver.status(), { backend: 'wasm', state: 'ready', restarts: 2 })
    const answers = await Promise.all([
      solver.quoteJson(request),
      solver.simulate({ poolId: pool(1, 0n).id, tokenIn: WETH, amountIn: (10n ** 15n).toString() }),
      solver.applyBlock({ blockNumber: 8, upserts: [pool(1, 3_010_000n)] }),
      solver.simulate(poison).catch((e: Error) => e.message),
      solver.quoteJson(request),
    ])
    assert.equal(answers[0], before)
    assert.ok(BigInt(answers[1].amountOut) > 0n)
    assert.deepEqual(answers[2], { pools: 2, rejected: [] })
    assert.match(answers[3] as string, /quarantined/)
    assert.equal(JSON.parse(answers[4] as string).blockNumber, 8)
    assert.deepEqual(solver.status(), { backend: 'wasm', state: 'ready', restarts: 2 }, 'no rebuild after the quarantine')
  } finally {
    await solver.close()
  }
})

test('a call that runs past its timeout fails, and the instance is replaced with the same market', async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker, restartDelayMs: 1, callTimeoutMs: 300 })
  try {
    await solver.applyBlock({ blockNumber: 9, upserts: [pool(1, 3_000_000n), pool(2, 3_100_000n)] })
    const before = await solver.quoteJson(request)
    const stuck = solver.simulate({ poolId: 'hang', tokenIn: WETH, amountIn: '1' })
    const waiting = solver.quoteJson(request)
    await assert.rejects(stuck, /did not answer this simulate within 300 ms; it is being restarted/)
    assert.equal(await waiting, before, 'the call queued behind the stuck one is answered by the new instance')
    assert.deepEqual(solver.status(), { backend: 'wasm', state: 'ready', restarts: 1 })
  } finally {
    await solver.close()
  }
})

test('restarts in a row with no call answered between them are capped: the solver then refuses every call', async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker, restartDelayMs: 1, maxRestartsInARow: 2 })
  try {
    await solver.applyBlock({ blockNumber: 10, upserts: [pool(1, 3_000_000n)] })
    // Three different requests that each trap (so none is quarantined), one after another.
    for (const n of [1, 2, 3]) await assert.rejects(solver.simulate({ poolId: `trap-${n}`, tokenIn: WETH, amountIn: '1' }), /trapped/)
    await assert.rejects(solver.quoteJson(request), /failed 3 times in a row without answering a call; it is not restarted again/)
    assert.equal(solver.status().state, 'failed')
  } finally {
    await solver.close()
  }
})

test("a quote's budget runs from when it was made: the time it waited behind another call in the worker is taken from it", async () => {
  const solver = await createWasmSolver({ nativeToken: WETH }, { workerUrl: trappingWorker })
  try {
    await solver.applyBlock({ blockNumber: 7, upserts: [pool(1, 3_000_000n), pool(2, 3_100_000n)] })
    const alone = await solver.quote({ ...request, timeBudgetMs: 100 })
    assert.equal(alone.metadata.stoppedBy, 'converged')
    // The worker is busy for 300 ms with the call made first; the quote waits for it.
    const busy = solver.simulate({ poolId: `slow:${pool(1, 0n).id}`, tokenIn: WETH, amountIn: (10n ** 15n).toString() })
    // A wei more: a repeat of the request would be the plan memo's converged answer, whatever its wait.
    const queued = await solver.quote({ ...request, amountIn: (10n ** 18n + 1n).toString(), timeBudgetMs: 100 })
    assert.ok(BigInt((await busy).amountOut) > 0n)
    assert.equal(queued.metadata.stoppedBy, 'budget', 'its 100 ms were spent in the queue')
    assert.equal(queued.routes.length > 0, true, 'still answered: the plan of what always runs')
  } finally {
    await solver.close()
  }
})

test('the shared channel: text past its buffer goes through the port, the buffer grows, and calls made at once are answered in order', async () => {
  // 40 pools: the upsert (10 KB) and a 100 WETH plan (18 KB, 35 routes) are past the buffer's
  // largest size, a 1 WETH plan (3 KB) past its first; the requests fit.
  const pools = Array.from({ length: 40 }, (_, k) => ({
    ...pool(1, 3_000_000n + BigInt(k) * 1_000n),
    id: `0xb${k.toString(16).padStart(39, '0')}`,
  }))
  const channelTextBytes = { initial: 1024, max: 8192 }
  const trade = (weth: bigint) => ({ ...request, amountIn: (weth * 10n ** 18n).toString() })
  // 600 UTF-16 units, 1,350 UTF-8 bytes (2, 3 and 4 a character): past the buffer only as UTF-8.
  const unknownPool = 'ü€𝔘'.repeat(150)
  const calls: ((s: Solver) => Promise<unknown>)[] = [
    (s) => s.simulate({ poolId: unknownPool, tokenIn: WETH, amountIn: '1' }).catch((e: Error) => e.message),
    (s) => s.applyBlock({ blockNumber: 1, upserts: pools }),
    (s) => s.quoteJson(trade(1n)),
    (s) => s.quoteJson(trade(100n)),
    // The best-priced pool becomes the worst: the 1 WETH plan after it differs from the one before.
    (s) => s.applyBlock({ blockNumber: 2, upserts: [{ ...pools[39], state: pool(1, 2_000_000n).state } as PoolInput] }),
    (s) => s.quoteJson(trade(1n)),
    (s) => s.upsertPools(pools.slice(1, 3)),
    (s) => s.quoteJson(trade(1000n)),
  ]
  /** The calls that settle straight from the channel (the others' wrappers await once more). */
  const rawCalls = [2, 3, 5, 7]
  assert.ok(JSON.stringify(pools).length > channelTextBytes.max)
  // The reference: the native addon, one call after another.
  const native = createNativeSolver({ nativeToken: WETH })
  const expected: unknown[] = []
  for (const call of calls) expected.push(await call(native))
  assert.ok((expected[0] as string).includes(unknownPool), 'the error names the pool')
  assert.ok((expected[2] as string).length > channelTextBytes.initial && (expected[2] as string).length < channelTextBytes.max)
  assert.ok((expected[3] as string).length > channelTextBytes.max)
  assert.notEqual(expected[5], expected[2], 'the quote after block 2 depends on it: the order shows in the answers')

  const solver = await createWasmSolver({ nativeToken: WETH }, { channelTextBytes })
  try {
    const settled: number[] = []
    const answers = await Promise.all(calls.map((call, k) => call(solver).finally(() => settled.push(k))))
    assert.deepEqual(answers, expected, 'every answer byte for byte the native one, made one after another: run in order')
    assert.deepEqual(
      settled.filter((k) => rawCalls.includes(k)),
      rawCalls,
      'settled in the order they were made',
    )
  } finally {
    await solver.close()
  }
})
