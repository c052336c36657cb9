import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, http, type PublicClient } from 'viem'
import { startRpcProxy, type RpcProxy } from '../../test/fixtures/startRpcProxy.ts'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { createRpcTransport } from '../chains/rpc/createRpcTransport.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { createMarketState, type MarketState } from './createMarketState.ts'
import { fetchLogsInRange } from './fetchLogsInRange.ts'

// Real nodes are not anvil: they throttle (HTTP 429, sometimes with Retry-After) and a fallback
// node can serve a head a block or two behind the primary. The proxy in front of anvil answers as
// such a node does.
const devnet = useDevnet()
let sm: SmallMarket
let solver: Solver
let proxy: RpcProxy
let market: MarketState | undefined
const lines: string[] = []

beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  solver = await loadSolver({ nativeToken: sm.chain.weth })
  proxy = await startRpcProxy({ target: devnet.anvil.url })
})
afterAll(async () => {
  await market?.stop()
  await solver?.close()
  await proxy?.close()
})

test('a 429 on eth_getLogs slows down and asks the same range again: never split as "too large"', async () => {
  const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }) as PublicClient
  const toBlock = await devnet.publicClient.getBlockNumber()
  const expected = await fetchLogsInRange({
    client: devnet.publicClient,
    fromBlock: 0n,
    toBlock,
    address: [sm.v2Pair],
    maxBlockRange: 1000n,
  })
  proxy.logRanges.length = 0
  proxy.throttle({ times: 3, method: 'eth_getLogs' }) // "429 Too Many Requests", no Retry-After: a doubling delay
  const started = Date.now()
  const logs = await fetchLogsInRange({ client, fromBlock: 0n, toBlock, address: [sm.v2Pair], maxBlockRange: 1000n, throttleDelayMs: 50 })
  assert.deepEqual(logs, expected)
  assert.deepEqual(
    proxy.logRanges.map(({ fromBlock, toBlock }) => ({ fromBlock, toBlock })),
    [{ fromBlock: 0n, toBlock }],
    'the range was asked whole once it was served, never split',
  )
  assert.ok(Date.now() - started >= 50 + 100 + 200, 'it waited 50, 100, 200 ms')
})

test('a single node throttling with Retry-After at the cold start: the start waits and finishes', async () => {
  const errors: string[] = []
  const rpc = createRpcTransport({ urls: [proxy.url], failureThreshold: 1, onError: (e) => errors.push(e.kind) })
  const client = createPublicClient({ chain: devnet.chain, transport: rpc.transport }) as PublicClient
  market = createMarketState({ client, chain: sm.chain, solver, maxSnapshotAgeMs: 60_000, log: (line) => lines.push(line) })
  proxy.throttle({ times: 2, retryAfterSec: 1 })
  const started = Date.now()
  const report = await market.start()
  assert.ok(report.upserted.length > 0)
  assert.ok(Date.now() - started >= 2000, 'it honoured Retry-After: 1 twice')
  assert.deepEqual(errors.filter((k) => k === 'throttled').length, 2)
  assert.equal(rpc.nodes()[0].state, 'closed', 'a throttle is not a dead node: the circuit stays closed')
})

test('a node one block behind (a lagging fallback) is not a reorg: the market keeps its block and does not roll back', async () => {
  assert.ok(market, 'started by the previous test')
  await sm.swap('v3', true, 10n ** 15n)
  await market.refresh()
  const at = market.freshness().blockNumber
  assert.equal(at, await devnet.publicClient.getBlockNumber())
  const poolsBefore = JSON.stringify(market.pools().map((s) => s.input))
  proxy.lag(1)
  const report = await market.refresh()
  assert.deepEqual(report.reread, [])
  assert.equal(report.reorg, undefined)
  assert.equal(market.freshness().reorgs, 0, 'not counted as a reorg')
  assert.equal(market.freshness().blockNumber, at, 'not rolled back')
  assert.equal(JSON.stringify(market.pools().map((s) => s.input)), poolsBefore)
  assert.ok(lines.some((line) => /lagging node/.test(line)))
  proxy.lag(0)
  await sm.swap('v3', false, 10n ** 15n)
  const next = await market.refresh()
  assert.equal(next.reorg, undefined)
  assert.equal(market.freshness().blockNumber, await devnet.publicClient.getBlockNumber(), 'in step again with the node')
})
