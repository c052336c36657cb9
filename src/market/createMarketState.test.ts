import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, hexToBigInt } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { loadNpmArtifact } from '../devnet/loadNpmArtifact.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { uniswapV4PoolId } from '../adapters/poolKeys/uniswapV4PoolId.ts'
import { uniswapV4PoolKey } from '../adapters/poolKeys/uniswapV4PoolKey.ts'
import { writeContractAndWait } from '../devnet/writeContractAndWait.ts'
import { createMarketState, type MarketState } from './createMarketState.ts'
import { MarketStaleError } from './errors.ts'

const MAX_AGE_MS = 1500
const devnet = useDevnet()
let sm: SmallMarket
let solver: Solver
let market: MarketState
const lines: string[] = []
const l = (a: string) => a.toLowerCase()
const ids = () => ({
  v2: l(sm.v2Pair),
  v3: l(sm.v3Pool),
  alien: l(sm.alienPool),
  quickswap: l(sm.quickswapPool),
  hydrex: l(sm.hydrexPool),
  v4: uniswapV4PoolId({ key: sm.v4Key }),
  v4Hooked: uniswapV4PoolId({ key: sm.v4HookedKey }),
})
const head = async () => hexToBigInt(await devnet.publicClient.request({ method: 'eth_blockNumber' }))

beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  solver = await loadSolver({ nativeToken: sm.chain.weth })
  market = createMarketState({
    client: devnet.publicClient,
    chain: sm.chain,
    solver,
    maxSnapshotAgeMs: MAX_AGE_MS,
    log: (line) => lines.push(line),
  })
})
afterAll(async () => {
  await market?.stop()
  await solver?.close()
})

test('cold start: discovers every pool, reads them all at one block, upserts the usable ones, skips the hooked V4 pool', async () => {
  const blockBefore = await head()
  const report = await market.start()
  const p = ids()
  assert.deepEqual(report.upserted, [p.v2, p.v3, p.alien, p.quickswap, p.hydrex, p.v4].sort())
  assert.equal(report.toBlock, blockBefore)
  assert.deepEqual(
    market.skipped().map((s) => s.id),
    [p.v4Hooked],
  )
  const f = market.freshness()
  assert.equal(f.blockNumber, blockBefore)
  assert.equal(f.stale, false)
  assert.equal(f.lastError, undefined)
  assert.ok(f.blockTimestamp && f.blockTimestamp > 0n)
  market.assertFresh()
  assert.deepEqual(market.encodeLeg(p.v3), { kind: 'v3_direct', pool: sm.v3Pool })
  console.log(`cold start: ${report.upserted.length} pools at block ${report.toBlock} in ${report.durationMs} ms`)
})

test('no new block: nothing is re-read, the snapshot is confirmed fresh', async () => {
  const pools = market.pools()
  const report = await market.refresh()
  assert.deepEqual(report.reread, [])
  assert.equal(market.freshness().blockNumber, await head())
  assert.equal(market.pools(), pools, 'the same pool list while no pool changed (a quote derives from it once)')
})

test('after swaps and mints on some pools, the refresh re-reads exactly those (plus the dynamic-fee pool) and quotes move', async () => {
  const p = ids()
  const [a, b] = sm.tokens
  const request = {
    tokenIn: a,
    tokenOut: b,
    amountIn: (10n ** 18n).toString(),
    slippageBps: 50,
    splitEnabled: false,
    maxHops: 1,
    allowedDexes: ['UNIV3' as const],
  }
  const before = await solver.quote(request)
  const simulatedBefore = await solver.simulate({ poolId: p.v3, tokenIn: a, amountIn: (10n ** 18n).toString() })

  await sm.swap('v3', BigInt(a) < BigInt(b), 3n * 10n ** 19n) // a → b on the V3 pool
  await sm.addLiquidity('hydrex')
  await sm.swap('v4', false, 10n ** 18n)
  const poolsBefore = market.pools()
  const report = await market.refresh()
  assert.notEqual(market.pools(), poolsBefore, 'a new pool list once pools were read again')
  assert.notEqual(
    market.pools().find((s) => s.ref.id === p.v3),
    poolsBefore.find((s) => s.ref.id === p.v3),
    'holding the V3 pool as read now',
  )
  assert.deepEqual(report.changed, [p.v3, p.hydrex, p.v4].sort())
  assert.deepEqual(report.alwaysRefreshed, [p.quickswap])
  assert.deepEqual(report.reread, [p.v3, p.hydrex, p.v4, p.quickswap].sort())
  assert.deepEqual(report.upserted, report.reread)
  assert.deepEqual(report.removed, [])
  assert.equal(market.freshness().blockNumber, await head())
  console.log(
    `per-block refresh: ${report.reread.length} pools over blocks ${report.fromBlock}..${report.toBlock} in ${report.durationMs} ms`,
  )

  const simulatedAfter = await solver.simulate({ poolId: p.v3, tokenIn: a, amountIn: (10n ** 18n).toString() })
  assert.ok(
    BigInt(simulatedAfter.amountOut) < BigInt(simulatedBefore.amountOut),
    'selling a into the V3 pool pays less after a → b was sold',
  )
  const afterQuote = await solver.quote(request)
  assert.notEqual(afterQuote.expectedAmountOut, before.expectedAmountOut)
  // And the refreshed snapshot is what the chain pays now.
  const paid = await sm.swap('v3', BigInt(a) < BigInt(b), 10n ** 18n)
  assert.equal(paid, BigInt(simulatedAfter.amountOut))

  await sm.swapV2(true, 10n ** 16n, 1n)
  const second = await market.refresh()
  assert.deepEqual(second.changed, [p.v2, p.v3].sort())
})

test('discovery after start: a new pair is found and read; a new V4 pool with hooks is skipped, not read', async () => {
  const [, b, c] = sm.tokens
  const pair = await sm.createV2Pair(b, c)
  const hooked = uniswapV4PoolKey({
    tokenA: b,
    tokenB: c,
    fee: 0x800000,
    tickSpacing: 10,
    hooks: '0x000000000000000000000000000000000000c000',
  })
  await writeContractAndWait({
    devnet,
    address: sm.factories.poolManager,
    abi: loadNpmArtifact({ name: 'PoolManager' }).abi as Abi,
    functionName: 'initialize',
    args: [hooked, 2n ** 96n],
  })
  const report = await market.refresh()
  assert.deepEqual(report.discovered, [l(pair)])
  assert.ok(report.upserted.includes(l(pair)))
  assert.ok(market.pools().some((s) => s.ref.id === l(pair)))
  assert.ok(market.skipped().some((s) => s.id === uniswapV4PoolId({ key: hooked }) && /hooks/.test(s.reason)))
  assert.ok(!report.reread.includes(uniswapV4PoolId({ key: hooked })))
  const quote = await solver.quote({ tokenIn: b, tokenOut: c, amountIn: '1000000', slippageBps: 50, allowedDexes: ['UNIV2'] })
  assert.equal(quote.routes[0].legs[0].poolId.toLowerCase(), l(pair))
})

test('any log of a followed pool re-reads it, whatever its event (an event signature the adapter does not decode)', async () => {
  // Stands for Algebra's 9-field Swap(..., overrideFee, pluginFee) on Base, a plugin's or a fork's
  // event: the pair's reserves change (storage written, as its own code would) and the pair emits
  // a log with a topic no adapter listens for. Its code is swapped for a one-log emitter for that
  // one transaction and put back (storage survives a code change).
  const p = ids()
  await market.refresh()
  const { publicClient, testClient, walletClient } = devnet
  const code = (await publicClient.getCode({ address: sm.v2Pair })) as `0x${string}`
  const [reserve0, reserve1] = [123_456_789n * 10n ** 9n, 987_654_321n * 10n ** 9n]
  const slot8 = (BigInt(Math.floor(Date.now() / 1000)) << 224n) | (reserve1 << 112n) | reserve0
  await testClient.setStorageAt({ address: sm.v2Pair, index: 8, value: `0x${slot8.toString(16).padStart(64, '0')}` })
  const unknownTopic = `0x${'ab'.repeat(32)}` as const
  await testClient.setCode({ address: sm.v2Pair, bytecode: `0x7f${unknownTopic.slice(2)}60006000a100` }) // PUSH32 topic, PUSH1 0, PUSH1 0, LOG1, STOP
  const hash = await walletClient.sendTransaction({ to: sm.v2Pair, data: '0x' })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  assert.equal(receipt.logs[0]?.topics[0], unknownTopic)
  await testClient.setCode({ address: sm.v2Pair, bytecode: code })
  await testClient.mine({ blocks: 1 })

  const report = await market.refresh()
  assert.ok(report.changed.includes(p.v2), `the pair emitted a log: it changed (changed: ${report.changed})`)
  const snapshot = market.pools().find((s) => s.ref.id === p.v2)
  assert.deepEqual((snapshot?.input.state as { reserves: string[] }).reserves, [String(reserve0), String(reserve1)])
})

test('the polling loop follows new blocks by itself and stops cleanly', async () => {
  const looping = createMarketState({
    client: devnet.publicClient,
    chain: sm.chain,
    solver,
    maxSnapshotAgeMs: MAX_AGE_MS,
    pollIntervalMs: 30,
    log: () => undefined,
  })
  await looping.start()
  await sm.swap('alien', true, 10n ** 15n)
  const target = await head()
  for (let i = 0; i < 200 && (looping.freshness().blockNumber ?? 0n) < target; i++) await sleep(20)
  assert.equal(looping.freshness().blockNumber, target)
  await looping.stop()
  await sm.swap('alien', true, 10n ** 15n)
  await sleep(150)
  assert.equal(looping.freshness().blockNumber, target, 'a stopped market does not refresh')
})

test('RPC failure: the error is reported, the snapshot is kept while young, then it is stale and quotes must be refused', async () => {
  await market.refresh()
  const { blockNumber } = market.freshness()
  const poolsBefore = market.pools().length
  await devnet.stop()
  await assert.rejects(market.refresh())
  const f = market.freshness()
  assert.ok(f.lastError && f.lastError.length > 0, 'the error is reported')
  assert.equal(f.blockNumber, blockNumber, 'the snapshot does not move')
  assert.equal(f.stale, false, 'still young')
  market.assertFresh()
  assert.equal(market.pools().length, poolsBefore)
  await sleep(MAX_AGE_MS + 100)
  await assert.rejects(market.refresh())
  assert.equal(market.freshness().stale, true)
  assert.throws(() => market.assertFresh(), MarketStaleError)
  assert.equal(market.freshness().blockNumber, blockNumber)
  console.log(`stale report: ${JSON.stringify({ ...market.freshness(), blockNumber: String(blockNumber), blockTimestamp: undefined })}`)
})
