import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { deploySmallMarket, type SmallMarket } from '../../src/devnet/deploySmallMarket.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { createSqliteMarketStore } from '../../src/market/store/createSqliteMarketStore.ts'
import { asNineFieldSwap } from '../fixtures/algebraNineFieldSwap.ts'
import { assertResumedWithoutRereading, blocksIn, storedCoverage } from '../fixtures/coldStartCoverage.ts'
import { spawnServer } from '../fixtures/spawnServer.ts'
import { type RpcProxy, startRpcProxy } from '../fixtures/startRpcProxy.ts'
import { smallMarketChainConfig } from '../fixtures/smallMarketChainConfig.ts'
import { waitFor } from '../fixtures/waitFor.ts'
import { chainDeployments } from '../../src/chains/chainDeployments.ts'

// The cold start as `npm start` runs it with RPC_URL, against a node with a hosted node's limits:
// the embedded chain's history (a small market, then 3,000 empty blocks) behind a proxy that
// refuses `eth_getLogs` over 100 blocks (worded as a provider words it) and answers every 15th
// range 429 with Retry-After: 1. The service listens from the start: /health 200, /ready 503 with
// the scan's progress, the progress gauges on the metrics port, quotes refused. It is killed
// (SIGKILL) in the middle of the scan and started again on the same MARKET_DB_PATH: the second
// start asks only the blocks the first did not store (and the last 64 below the highest stored
// one, the reorg margin), and finishes.
// Then, following the chain behind two nodes (the second one 2 blocks behind, as a fallback node
// lags): with the first node down the head goes backwards, which is not a reorg and rolls nothing
// back; and the Algebra pool's Swap logs are served in the 9-field form Base's Algebra deployments
// are reported to emit (`overrideFee`, `pluginFee` added; another topic0 than the one the adapter
// decodes): the pool is re-read all the same, so a quote through it moves with the swap.
// The history is the embedded chain's, served live through the proxy with these variants injected
// (the limits, the lag, the rewritten logs). recordedChain.test.ts proves the same limits, kill,
// resume, lag and 9-field Swap against a replay of a recording (nothing served live); this file
// keeps what only a live server shows: HTTP up during the scan with its progress, and following by
// polling.
// What a recording of Base would add: its volume (about 90,000 ranges from the start blocks, tens
// of thousands of pools), the real providers' own caps and wordings (the refusal here is one
// provider's wording; the 429 carries Retry-After as Alchemy's and QuickNode's do), and the real
// deployments' own event forms (here one variant, rewritten from the stand-in's 7-field Swap).

const KEY = 'cold-start-key-0123456789abcdef'
const EMPTY_BLOCKS = 3000
const DEPLOYMENTS = 6

const devnet = useDevnet()
let sm: SmallMarket
let proxy: RpcProxy
/** A second node, 2 blocks behind the first. */
let lagging: RpcProxy
let dir: string
let env: Record<string, string>
let toBlock: bigint
const children: ChildProcess[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cold-start-'))
  sm = await deploySmallMarket({ devnet })
  // In steps: one anvil_mine of 3,000 blocks outlasts the client's 10 s timeout on a loaded machine.
  for (let mined = 0; mined < EMPTY_BLOCKS; mined += 500) await devnet.testClient.mine({ blocks: 500 })
  toBlock = await devnet.publicClient.getBlockNumber()
  proxy = await startRpcProxy({ target: devnet.anvil.url })
  proxy.limitLogs({ maxLogRange: 100n, throttleEvery: 15, retryAfterSec: 1, delayMs: 40 })
  lagging = await startRpcProxy({ target: devnet.anvil.url })
  lagging.lag(2)
  const chain = smallMarketChainConfig(sm)
  assert.equal(Object.keys(chain.deployments).length, DEPLOYMENTS)
  writeFileSync(join(dir, 'chain.json'), JSON.stringify(chain))
  env = {
    RPC_URL: proxy.url,
    ROUTER_ADDRESS: sm.harness,
    CHAIN_CONFIG: join(dir, 'chain.json'),
    MARKET_DB_PATH: join(dir, 'market.sqlite'),
    API_KEYS: KEY,
    API_KEYS_FILE: '',
    MIN_POOL_LIQUIDITY_WEI: '0',
    PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
    MAX_LOG_BLOCK_RANGE: '400',
    DISCOVERY_MAX_IN_FLIGHT: '2',
    DISCOVERY_CALLS_PER_SECOND: '100',
    RATE_LIMIT_PER_MINUTE: '100000',
  }
}, 180_000)
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  await proxy?.close()
  await lagging?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function startServer() {
  const server = spawnServer(env)
  children.push(server.child)
  return server
}

type Ready = {
  ready: boolean
  notReady: string[]
  market: { blockNumber: number | null }
  discovery: { phase: string; scannedBlocks: number; totalBlocks: number; percent: number; poolsFound: number; etaSeconds: number | null }
}
const readyOf = async (url: string) => {
  const res = await fetch(`${url}/ready`)
  return { status: res.status, body: (await res.json()) as Ready }
}

test(
  'HTTP up during the cold start with its progress; killed mid-scan, the restart resumes without re-reading and finishes',
  { timeout: 300_000 },
  async () => {
    const allBlocks = (toBlock + 1n) * BigInt(DEPLOYMENTS)
    const first = startServer()
    const url = await waitFor('the first start to listen', () => first.output().match(/listening on (http:\/\/[\d.:]+)/)?.[1], 120_000)
    const metricsUrl = await waitFor('the metrics line', () => first.output().match(/metrics: (http:\/\/[\d.:]+\/metrics)/)?.[1], 120_000)
    assert.ok(proxy.logRanges.length < 100, `listening after ${proxy.logRanges.length} ranges, not after the scan`)
    assert.equal((await fetch(`${url}/health`)).status, 200)

    // /ready: 503 while scanning, with blocks scanned of the total, pools found and an ETA.
    const scanning = await waitFor(
      'the scan under way',
      async () => {
        const r = await readyOf(url)
        return r.body.discovery?.phase === 'scanning' && r.body.discovery.scannedBlocks > 0 && r.body.discovery.etaSeconds !== null
          ? r
          : undefined
      },
      60_000,
    )
    assert.equal(scanning.status, 503)
    assert.ok(scanning.body.notReady.includes('coldStart'))
    assert.equal(scanning.body.discovery.totalBlocks, Number(allBlocks))
    assert.ok(scanning.body.discovery.scannedBlocks < scanning.body.discovery.totalBlocks)
    assert.ok(scanning.body.discovery.percent > 0 && scanning.body.discovery.percent < 100)
    const metrics = await (await fetch(metricsUrl)).text()
    assert.match(metrics, new RegExp(`swap_discovery_blocks_total ${allBlocks}\\b`))
    assert.match(metrics, /swap_discovery_blocks_scanned [1-9]\d*/)
    assert.match(metrics, /swap_discovery_eta_seconds \d/)
    const quote = await fetch(`${url}/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ chainId: sm.chain.chainId, tokenIn: sm.tokens[0], tokenOut: sm.tokens[1], amountIn: '1000', slippageBps: 50 }),
    })
    assert.equal(quote.status, 503, 'quotes are refused until the market is at the head')

    // Killed in the middle of the scan (no graceful close): what was stored is what a crash leaves.
    await waitFor('a third of the ranges', () => (proxy.logRanges.length > allBlocks / 100n / 3n ? true : undefined), 120_000)
    first.child.kill('SIGKILL')
    await first.exited
    assert.ok(proxy.refusedLogRanges.length > 0, 'ranges over the cap were refused and split')
    assert.ok(proxy.throttledLogs() > 0, 'ranges were throttled')
    assert.match(first.output(), /"component":"market".*discovery progress/, 'progress in the log')
    const stored = storedCoverage({ path: env.MARKET_DB_PATH, chainId: sm.chain.chainId })
    const storedBlocks = blocksIn(stored.values())
    assert.ok(storedBlocks > 0n && storedBlocks < allBlocks, `${storedBlocks} of ${allBlocks} blocks stored at the kill`)

    const servedBefore = proxy.logRanges.length
    const second = startServer()
    const url2 = await waitFor('the second start to listen', () => second.output().match(/listening on (http:\/\/[\d.:]+)/)?.[1], 120_000)
    // The port is bound before the service loads (/ready says `phase: 'loading'` until then).
    const resumed = await waitFor(
      'the second start to load',
      async () => {
        const r = await readyOf(url2)
        return r.body.discovery ? r : undefined
      },
      120_000,
    )
    if (resumed.body.discovery.phase === 'scanning')
      assert.ok(resumed.body.discovery.totalBlocks <= Number(allBlocks - storedBlocks + 64n * BigInt(stored.size)), 'it resumes')
    const done = await waitFor(
      'the second start to be ready',
      async () => {
        const r = await readyOf(url2)
        return r.status === 200 ? r : undefined
      },
      180_000,
    )
    assert.equal(done.body.discovery.phase, 'done')
    assert.deepEqual(done.body.notReady, [])
    assert.ok(done.body.discovery.poolsFound >= 7)

    // Nothing stored was asked again, but the reorg margin (the 64 blocks below the highest stored one).
    assertResumedWithoutRereading({
      stored,
      asked: proxy.logRanges.slice(servedBefore),
      sources: new Set(chainDeployments(sm.chain.deployments).map(({ deployment }) => deployment.source.toLowerCase())),
      toBlock,
      allBlocks,
    })

    const store = createSqliteMarketStore({ path: env.MARKET_DB_PATH, chainId: sm.chain.chainId })
    const ids = new Set(store.pools().map((p) => p.ref.id))
    store.close()
    for (const pool of [sm.v2Pair, sm.v3Pool, sm.alienPool, sm.quickswapPool, sm.hydrexPool]) assert.ok(ids.has(pool.toLowerCase()))
    second.child.kill('SIGTERM')
    assert.equal(await second.exited, 0)
  },
)

test(
  'following behind two nodes: a second node one block behind is not a reorg; a pool whose Swap is the 9-field Algebra form is re-read',
  { timeout: 300_000 },
  async () => {
    env.RPC_URL = `${proxy.url},${lagging.url}`
    env.MARKET_POLL_INTERVAL_MS = '200'
    proxy.limitLogs({ maxLogRange: 100n })
    const pool = sm.hydrexPool.toLowerCase() // static fee, no plugin: read only when its logs say so
    let rewritten = 0
    proxy.rewriteLogs(asNineFieldSwap(pool, () => rewritten++))
    const server = startServer()
    const url = await waitFor('the start to listen', () => server.output().match(/listening on (http:\/\/[\d.:]+)/)?.[1], 120_000)
    await waitFor('ready', async () => ((await readyOf(url)).status === 200 ? true : undefined), 180_000)
    /** What the solver projects for the direct path through the Algebra pool (a candidate whether chosen or not). */
    const throughAlgebra = async () => {
      const res = await fetch(`${url}/quote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': KEY },
        body: JSON.stringify({
          chainId: sm.chain.chainId,
          tokenIn: sm.tokens[1],
          tokenOut: sm.tokens[2],
          amountIn: '1000000000000000',
          slippageBps: 50,
        }),
      })
      const json = (await res.json()) as { routePlan: { metadata: { candidates: { dexes: string[]; projectedOut: string }[] } } }
      assert.equal(res.status, 200, JSON.stringify(json))
      const direct = json.routePlan.metadata.candidates.find((c) => c.dexes.length === 1 && c.dexes[0] === 'HYDREX')
      assert.ok(direct, JSON.stringify(json.routePlan.metadata))
      return BigInt(direct.projectedOut)
    }

    // The first node down: the second answers a head 2 blocks behind the market's. Kept, no reorg.
    await devnet.testClient.mine({ blocks: 3 })
    const chainHead = Number(await devnet.publicClient.getBlockNumber())
    await waitFor(
      'the market at the head',
      async () => ((await readyOf(url)).body.market.blockNumber === chainHead ? true : undefined),
      30_000,
    )
    proxy.down()
    await waitFor('the lagging head refused', () => (/a lagging node; kept at \d+/.test(server.output()) ? true : undefined), 30_000).catch(
      (error) => {
        throw new Error(
          `${error.message}; lagging calls ${JSON.stringify([...lagging.calls])}; the service's last lines:\n${server
            .output()
            .split('\n')
            .filter((l) => l.includes('market'))
            .slice(-8)
            .join('\n')}`,
        )
      },
    )
    proxy.up()
    assert.doesNotMatch(server.output(), /market: reorg/)

    // A swap through the Algebra pool, its Swap log served in the 9-field form: the pool is re-read.
    const before = await throughAlgebra()
    await sm.swap('hydrex', true, 10n ** 20n)
    const after = await waitFor(
      'the quote to move with the swap',
      async () => {
        const out = await throughAlgebra()
        return out !== before ? out : undefined
      },
      30_000,
    )
    assert.ok(rewritten > 0, 'the Swap was served in the 9-field form')
    assert.notEqual(after, before, "the pool's price moved with the swap")
    assert.doesNotMatch(server.output(), /market: reorg/)
    server.child.kill('SIGTERM')
    assert.equal(await server.exited, 0)
  },
)
