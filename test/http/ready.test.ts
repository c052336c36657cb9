import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createWasmSolver } from '../../bindings/wasmSolver.ts'
import { type DevnetFile, devnetChainConfig } from '../../src/chains/devnetChainConfig.ts'
import { createSwapApp } from '../../src/http/createSwapApp.ts'
import { readinessReport } from '../../src/http/readinessReport.ts'
import { createMarketState } from '../../src/market/createMarketState.ts'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, startHttpTestStack } from './startHttpTestStack.ts'

// GET /ready: the readiness probe next to the spec's liveness probe /health. Public (no key, never
// counted), states and numbers only; 503 while quotes cannot be priced: a stale or missing market
// snapshot, or a WASM solver restarting after a trap.

let stack: HttpTestStack
const apps: FastifyInstance[] = []

beforeAll(async () => {
  stack = await startHttpTestStack()
})
afterAll(async () => {
  for (const app of apps) await app.close()
  await stack?.close()
})

test('a serving instance is ready: 200, the snapshot block and age, the solver; no key needed, never counted', async () => {
  const app = await stack.makeApp({ rateLimitPerMinute: 1 })
  await app.listen({ host: '127.0.0.1', port: 0 })
  for (let i = 0; i < 3; i++) {
    const res = await callApp(app, 'socket', { method: 'GET', url: '/ready' })
    assert.equal(res.status, 200, res.text)
    assert.equal(res.json.ready, true)
    assert.equal(res.json.market.blockNumber, Number(stack.service.market.freshness().blockNumber))
    assert.equal(res.json.market.fresh, true)
    assert.ok(res.json.market.ageMs >= 0 && res.json.market.ageMs <= res.json.market.maxAgeMs)
    assert.deepEqual(res.json.solver, { backend: 'native', state: 'ready', restarts: 0 })
    assert.deepEqual(Object.keys(res.json).sort(), ['discovery', 'market', 'notCovered', 'notReady', 'ready', 'redis', 'rpc', 'solver'])
    assert.deepEqual(res.json.notReady, [])
    assert.equal(res.json.redis, null, 'the embedded chain keeps its state in memory')
    assert.equal(res.json.rpc, null, 'and has no RPC nodes')
  }
  // The one counted call of this key's minute is still there: /ready took none of it.
  const { tokens } = stack.service.devnet!.market
  const body = {
    chainId: 8453,
    tokenIn: tokens.WETH.address,
    tokenOut: tokens.USDC.address,
    amountIn: '1000000000000000000',
    slippageBps: 50,
  }
  assert.equal((await callApp(app, 'inject', { url: '/quote', key: KEY_A, body })).status, 200)
  assert.equal((await callApp(app, 'inject', { url: '/quote', key: KEY_A, body })).status, 429)
})

test('no snapshot yet: 503, not fresh, the block null', async () => {
  const { service } = stack
  const never = createMarketState({
    client: service.publicClient,
    chain: devnetChainConfig({ file: service.devnet!.market as unknown as DevnetFile }),
    solver: service.solver,
    maxSnapshotAgeMs: 10_000,
    log: () => {},
  })
  const app = await createSwapApp({
    deps: { ...service.deps, readiness: () => readinessReport({ market: never, solver: service.solver, maxSnapshotAgeMs: 10_000 }) },
  })
  apps.push(app)
  const res = await callApp(app, 'inject', { method: 'GET', url: '/ready' })
  assert.equal(res.status, 503)
  assert.deepEqual(res.json.market, { blockNumber: null, ageMs: null, maxAgeMs: 10_000, fresh: false })
  assert.equal(res.json.ready, false)
  assert.deepEqual(res.json.notReady, ['marketStale'])
  assert.deepEqual(await callApp(app, 'inject', { method: 'GET', url: '/health' }).then((r) => r.json), { ok: true }, 'still alive')
})

test('a WASM solver restarting after a trap: 503 until the new instance holds the market, then 200', async () => {
  const { service } = stack
  const wasm = await createWasmSolver(
    { nativeToken: service.chain.weth },
    { workerUrl: new URL('../fixtures/trappingWasmWorker.mjs', import.meta.url), restartDelayMs: 300 },
  )
  try {
    const pools = service.market.pools().map((s) => s.input)
    await wasm.applyBlock({ blockNumber: 1, upserts: pools })
    const app = await createSwapApp({
      deps: { ...service.deps, readiness: () => readinessReport({ market: service.market, solver: wasm, maxSnapshotAgeMs: 600_000 }) },
    })
    apps.push(app)
    assert.equal((await callApp(app, 'inject', { method: 'GET', url: '/ready' })).status, 200)
    await assert.rejects(wasm.simulate({ poolId: 'trap', tokenIn: service.chain.weth, amountIn: '1' }), /trapped/)
    const restarting = await callApp(app, 'inject', { method: 'GET', url: '/ready' })
    assert.equal(restarting.status, 503)
    assert.deepEqual(restarting.json.solver, { backend: 'wasm', state: 'restarting', restarts: 1 })
    assert.equal(restarting.json.market.fresh, true, 'the market is fine: the solver is why')
    assert.deepEqual(restarting.json.notReady, ['solverRestarting'])
    // A call waits for the new instance; then the probe is green again.
    assert.equal(pools.length, (await wasm.applyBlock({ blockNumber: 2 })).pools)
    const back = await callApp(app, 'inject', { method: 'GET', url: '/ready' })
    assert.equal(back.status, 200)
    assert.deepEqual(back.json.solver, { backend: 'wasm', state: 'ready', restarts: 1 })
  } finally {
    await wasm.close()
  }
})
