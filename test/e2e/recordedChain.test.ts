import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { deploySmallMarket, type SmallMarket, type SwapVenue } from '../../src/devnet/deploySmallMarket.ts'
import { type Devnet, startDevnet } from '../../src/devnet/startDevnet.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'
import { ALGEBRA_SWAP, ALGEBRA_SWAP_9, asNineFieldSwap } from '../fixtures/algebraNineFieldSwap.ts'
import { assertResumedWithoutRereading, blocksIn, storedCoverage } from '../fixtures/coldStartCoverage.ts'
import { logRangeRefusals } from '../fixtures/logRangeRefusals.ts'
import { startRecordingRpc, startReplayRpc } from '../fixtures/recordedRpc.ts'
import { smallMarketChainConfig } from '../fixtures/smallMarketChainConfig.ts'
import { spawnServer } from '../fixtures/spawnServer.ts'
import { startRpcProxy } from '../fixtures/startRpcProxy.ts'
import { waitFor } from '../fixtures/waitFor.ts'
import { chainDeployments } from '../../src/chains/chainDeployments.ts'

// Issue 26's recorded-chain proof: the cold start and following served from a recorded slice of
// chain history by nodes with a real node's limits.
// Recording: a live run records a real anvil chain's JSON-RPC answers (a small market, six
// deployments, then EMPTY_BLOCKS empty blocks) while the service cold-starts on it and follows a
// few blocks with swaps, with a variant injected as the recording is made: the Algebra pool's Swap
// logs are served in the 9-field form Base's Algebra deployments are reported to emit
// (`overrideFee`, `pluginFee`; another topic0 than the adapter decodes). The recording keeps every
// log of the slice, and each other read keyed by method, parameters and block (Multicall3 batches
// per sub-call; test/fixtures/recordedRpc.ts); the replay filters the logs as a node does, so a range
// split on a refusal or resumed after a kill is answered, and anything else not recorded is a
// JSON-RPC error (listed, and asserted empty).
// Replay, from a fresh store, with a real node's limits injected in front of the replay node
// (test/fixtures/startRpcProxy.ts, the live proxy coldStart.test.ts uses): `eth_getLogs` over 100
// blocks refused in Alchemy's words and code, every 12th range answered 429 with Retry-After: 1
// (every 40th in the restart, for time).
// 1. `npm start`'s server (a child process) cold-starts on it and is killed (SIGKILL) mid-scan;
// 2. a restart on the same MARKET_DB_PATH finishes, asks none of the ranges stored (counted on the
//    node: only the reorg margin again), and holds the live run's market and quotes;
// 3. following behind two replay nodes, the second one recorded head behind (a fallback node that
//    lags): at each block the market and quotes are the live run's (the Algebra pool re-read after
//    its 9-field Swap: its state moves with the swap); with the first node down, the second's older
//    head is not a reorg and rolls nothing back.
// Polling is off in the in-process runs (the test steps the market with `refresh()`), so the live
// run and the replay ask the same heads at the same steps.
// What a recording of Base would add: its volume (about 90,000 ranges from the start blocks, tens
// of thousands of pools), the real providers' own limits and wordings as they answer today (here
// quoted from users' reports), the real deployments' own event forms (here one variant, rewritten
// from the stand-in's 7-field Swap), and real lags between providers; at the cost of a fixture of
// many megabytes kept in step with every change to the reads (a change to the token probe or the
// tick lens, run by state override, changes their keys), which is why the recording is made in the
// test, not stored.
// Starts one anvil (the live chain), one child server and three in-process services; HTTP only on
// the child and the local nodes.

const KEY = 'recorded-chain-key-0123456789abcdef'
/** The blocks followed after the cold start: a swap each, through these venues. */
const FOLLOWED: [SwapVenue, boolean, bigint][] = [
  ['hydrex', true, 10n ** 20n],
  ['quickswap', false, 10n ** 18n],
  ['v3', true, 10n ** 19n],
]

/** Empty blocks after the market's: the scan's length (about 30 ranges of the node's 100-block cap over six deployments). */
const EMPTY_BLOCKS = 400
/** The limits the replay's nodes hold `eth_getLogs` to (the first node's, in the cold start). */
const LIMITS = { maxLogRange: 100n, refusal: logRangeRefusals.alchemy }
/** The cold start's settings in the replay: ranges of 400 blocks asked (refused and split at the cap), two in flight. */
const SCAN = { MAX_LOG_BLOCK_RANGE: '400', DISCOVERY_MAX_IN_FLIGHT: '2', DISCOVERY_CALLS_PER_SECOND: '100' }

let devnet: Devnet
let sm: SmallMarket
let dir: string
const children: ChildProcess[] = []

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recorded-chain-'))
  devnet = await startDevnet({})
  sm = await deploySmallMarket({ devnet })
  await devnet.testClient.mine({ blocks: EMPTY_BLOCKS })
  const chain = smallMarketChainConfig(sm)
  writeFileSync(join(dir, 'chain.json'), JSON.stringify(chain))
}, 60_000)
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The service's settings (polling off), on `rpcUrl`, storing at `name`.sqlite. */
const settings = (rpcUrl: string, name: string, extra: Record<string, string> = {}) => ({
  RPC_URL: rpcUrl,
  ROUTER_ADDRESS: sm.harness,
  CHAIN_CONFIG: join(dir, 'chain.json'),
  MARKET_DB_PATH: join(dir, `${name}.sqlite`),
  API_KEYS: KEY,
  MIN_POOL_LIQUIDITY_WEI: '0',
  MARKET_POLL_INTERVAL_MS: '600000',
  RATE_LIMIT_PER_MINUTE: '100000',
  ...extra,
})

/** The service in-process; resolves once its cold start is done. */
async function start(rpcUrl: string, name: string, extra: Record<string, string> = {}): Promise<SwapService> {
  return startSwapService({ config: loadConfig(settings(rpcUrl, name, extra)), logger: false, onDiscoveryProgress: () => {} })
}

/** What the market holds and quotes at its block: compared between the live run and the replay. */
async function observe(service: SwapService) {
  const json = (value: unknown) => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)))
  const pools = json([...service.market.pools()].sort((a, b) => a.ref.id.localeCompare(b.ref.id)))
  const quotes = []
  for (const [tokenIn, tokenOut] of [
    [sm.tokens[0], sm.tokens[1]],
    [sm.tokens[1], sm.tokens[2]],
  ]) {
    const res = await service.fastify.inject({
      method: 'POST',
      url: '/quote',
      headers: { 'x-api-key': KEY },
      payload: { chainId: sm.chain.chainId, tokenIn, tokenOut, amountIn: '1000000000000000', slippageBps: 50 },
    })
    assert.equal(res.statusCode, 200, res.body)
    const { amountOut, routePlan } = res.json() as { amountOut: string; routePlan: { blockNumber: number; legs: unknown } }
    quotes.push({ amountOut, blockNumber: routePlan.blockNumber, legs: routePlan.legs })
  }
  return { block: service.market.freshness().blockNumber, pools, quotes }
}
type Observed = Awaited<ReturnType<typeof observe>>
const poolOf = (o: Observed, id: string) => (o.pools as { ref: { id: string } }[]).find((p) => p.ref.id === id.toLowerCase())

test(
  'a recorded slice served by nodes with a real node’s limits: the cold start killed and resumed without re-reading, then followed behind a lagging node, ends with the live run’s market and quotes',
  { timeout: 120_000 },
  async () => {
    // Recording, the 9-field Algebra Swap injected as the chain is read.
    const variants = await startRpcProxy({ target: devnet.anvil.url })
    let rewritten = 0
    variants.rewriteLogs(asNineFieldSwap(sm.hydrexPool, () => rewritten++))
    const recorder = await startRecordingRpc({ target: variants.url, multicall3: sm.chain.multicall3 })
    const live: Observed[] = []
    const heads: bigint[] = []
    const first = await start(recorder.url, 'live')
    try {
      heads.push(await devnet.publicClient.getBlockNumber({ cacheTime: 0 }))
      live.push(await observe(first))
      for (const [venue, zeroForOne, amountIn] of FOLLOWED) {
        await sm.swap(venue, zeroForOne, amountIn)
        heads.push(await devnet.publicClient.getBlockNumber({ cacheTime: 0 }))
        await first.market.refresh()
        live.push(await observe(first))
      }
      await recorder.recordLogs()
    } finally {
      await first.fastify.close()
      await recorder.close()
      await variants.close()
    }
    const { recording } = recorder
    assert.deepEqual(recording.conflicts, [], 'each key answered one way')
    assert.ok(live[0].pools.length >= 6, `${live[0].pools.length} pools`)
    const algebraSwaps = recording.logs.filter((l) => l.address.toLowerCase() === sm.hydrexPool.toLowerCase())
    assert.ok(rewritten > 0 && algebraSwaps.some((l) => l.topics[0] === ALGEBRA_SWAP_9), 'the recording holds the 9-field Swap')
    assert.ok(!algebraSwaps.some((l) => l.topics[0] === ALGEBRA_SWAP), 'and no 7-field one')
    // The live run followed the 9-field Swap (the first block followed swaps through the Algebra pool).
    assert.notDeepEqual(poolOf(live[1], sm.hydrexPool), poolOf(live[0], sm.hydrexPool), 'the Algebra pool re-read after its Swap')

    // 1. The replay node behind a real node's limits; `npm start`'s server killed mid-scan.
    const replay = await startReplayRpc({ recording, multicall3: sm.chain.multicall3, head: heads[0] })
    const node = await startRpcProxy({ target: replay.url })
    node.limitLogs({ ...LIMITS, throttleEvery: 12, retryAfterSec: 1, delayMs: 20 })
    const lagging = await startReplayRpc({ recording, multicall3: sm.chain.multicall3, head: heads[0] })
    const allBlocks = (heads[0] + 1n) * BigInt(chainDeployments(sm.chain.deployments).length)
    const sources = new Set(chainDeployments(sm.chain.deployments).map(({ deployment }) => deployment.source.toLowerCase()))
    const replayed = settings(node.url, 'replayed', SCAN)
    try {
      const killed = spawnServer({ ...replayed, API_KEYS_FILE: '', METRICS_PORT: '0' })
      children.push(killed.child)
      await waitFor(
        'a third of the scan, a 429 met',
        () =>
          node.throttledLogs() > 0 && node.logRanges.filter((r) => r.address?.length === 1 && sources.has(r.address[0])).length > 9
            ? true
            : undefined,
        60_000,
      ).catch((error) => {
        throw new Error(`${error.message}; the server's output:\n${killed.output().slice(-2000)}`)
      })
      killed.child.kill('SIGKILL')
      await killed.exited
      assert.ok(node.refusedLogRanges.length > 0, 'ranges over the cap were refused (in Alchemy’s words) and split')
      assert.ok(node.throttledLogs() > 0, 'ranges were answered 429 with Retry-After')
      const stored = storedCoverage({ path: replayed.MARKET_DB_PATH, chainId: sm.chain.chainId })
      const storedBlocks = blocksIn(stored.values())
      assert.ok(storedBlocks > 0n && storedBlocks < allBlocks, `${storedBlocks} of ${allBlocks} blocks stored at the kill`)

      // 2. The restart on the same store finishes without asking what it has, at the live run's market.
      const askedBefore = node.logRanges.length
      node.limitLogs({ ...LIMITS, throttleEvery: 40, retryAfterSec: 1 }) // fewer waits: the 429s are proven above
      const resumed = await start(node.url, 'replayed', SCAN)
      try {
        assertResumedWithoutRereading({ stored, asked: node.logRanges.slice(askedBefore), sources, toBlock: heads[0], allBlocks })
        assert.deepEqual(await observe(resumed), live[0])
      } finally {
        await resumed.fastify.close()
      }

      // 3. Following behind two nodes, the second a recorded head behind.
      node.limitLogs(LIMITS)
      const follower = await start(`${node.url},${lagging.url}`, 'replayed', SCAN)
      try {
        assert.deepEqual(await observe(follower), live[0])
        for (let i = 1; i < heads.length; i++) {
          replay.setHead(heads[i])
          lagging.setHead(heads[i - 1])
          await follower.market.refresh()
          assert.deepEqual(await observe(follower), live[i], `block ${heads[i]}`)
        }
        // The first node down: the second answers an older head. Kept, nothing rolled back.
        const laggingServed = [...lagging.served.values()].reduce((a, b) => a + b, 0)
        node.down()
        await follower.market.refresh()
        assert.ok([...lagging.served.values()].reduce((a, b) => a + b, 0) > laggingServed, 'the lagging node answered')
        assert.deepEqual(await observe(follower), live.at(-1), 'the market kept at its block')
        node.up()
      } finally {
        await follower.fastify.close()
      }
    } finally {
      await node.close()
      await replay.close()
      await lagging.close()
    }
    assert.deepEqual(replay.unknown, [], 'every request was in the recording')
    assert.deepEqual(lagging.unknown, [], 'every request to the lagging node was in the recording')
    // The replay served the run (not a market kept from elsewhere): discovery's logs, the batched reads, the head.
    for (const method of ['eth_getLogs', 'eth_call', 'eth_getBlockByNumber'])
      assert.ok((replay.served.get(method) ?? 0) > 0, `${method} served: ${JSON.stringify([...replay.served])}`)
  },
)
