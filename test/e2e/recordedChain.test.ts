import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { deploySmallMarket, type SmallMarket, type SwapVenue } from '../../src/devnet/deploySmallMarket.ts'
import { type Devnet, startDevnet } from '../../src/devnet/startDevnet.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'
import { startRecordingRpc, startReplayRpc } from '../fixtures/recordedRpc.ts'
import { smallMarketChainConfig } from '../fixtures/smallMarketChainConfig.ts'

// The service's cold start and following served from a recording (issue 26's recorded-chain
// proof, in its smallest honest form): a live run records a real anvil chain's JSON-RPC answers (a
// small market: six deployments, six pools in the solver) while the service cold-starts on it and follows a few
// blocks with swaps; a second run, with a fresh store, is served by a node that answers only from
// that recording (test/fixtures/recordedRpc.ts: each read keyed by method, parameters and block,
// Multicall3 batches per sub-call; anything not recorded is a JSON-RPC error) and must end with the
// same market and the same quotes at each block. Polling is off (the test steps the market with
// `refresh()`), so both runs ask the same head at the same steps.
// What it proves: the service's reads are a function of the chain at a block (a recording replays
// them), so a recorded slice of a real chain can be replayed offline. What it does not: a node's
// limits and variants (range caps, 429s, a lagging node, the 9-field Algebra swap) are
// coldStart.test.ts's, on a live proxy; a recording of Base itself would add its volume (tens of
// thousands of pools), its deployments' own event forms and its providers' wordings, at the cost
// of a fixture of many megabytes kept in step with every change to the reads (a change to the token
// probe or the tick lens, run by state override, changes their keys).
// Starts one anvil (the live chain) and runs the service twice in-process; no HTTP server listens.

const KEY = 'recorded-chain-key-0123456789abcdef'
/** The blocks followed after the cold start: a swap each, through these venues. */
const FOLLOWED: [SwapVenue, boolean, bigint][] = [
  ['hydrex', true, 10n ** 20n],
  ['quickswap', false, 10n ** 18n],
  ['v3', true, 10n ** 19n],
]

let devnet: Devnet
let sm: SmallMarket
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recorded-chain-'))
  devnet = await startDevnet({})
  sm = await deploySmallMarket({ devnet })
  const chain = smallMarketChainConfig(sm)
  writeFileSync(join(dir, 'chain.json'), JSON.stringify(chain))
}, 60_000)
afterAll(async () => {
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function start(rpcUrl: string, name: string): Promise<SwapService> {
  const config = loadConfig({
    RPC_URL: rpcUrl,
    ROUTER_ADDRESS: sm.harness,
    CHAIN_CONFIG: join(dir, 'chain.json'),
    MARKET_DB_PATH: join(dir, `${name}.sqlite`),
    API_KEYS: KEY,
    MIN_POOL_LIQUIDITY_WEI: '0',
    MARKET_POLL_INTERVAL_MS: '600000',
    RATE_LIMIT_PER_MINUTE: '100000',
  })
  return startSwapService({ config, logger: false, onDiscoveryProgress: () => {} })
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

test('the cold start and following served from a recording end with the live run’s market and quotes', { timeout: 60_000 }, async () => {
  const recorder = await startRecordingRpc({ target: devnet.anvil.url, multicall3: sm.chain.multicall3 })
  const live: Awaited<ReturnType<typeof observe>>[] = []
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
  } finally {
    await first.fastify.close()
    await recorder.close()
  }
  assert.deepEqual(recorder.recording.conflicts, [], 'each key answered one way')
  assert.ok(live[0].pools.length >= 6, `${live[0].pools.length} pools`)
  assert.notDeepEqual(live.at(-1)!.quotes, live[0].quotes, 'the swaps moved the quotes')

  const replay = await startReplayRpc({ recording: recorder.recording, multicall3: sm.chain.multicall3, head: heads[0] })
  const second = await start(replay.url, 'replayed')
  try {
    assert.deepEqual(await observe(second), live[0])
    for (let i = 1; i < heads.length; i++) {
      replay.setHead(heads[i])
      await second.market.refresh()
      assert.deepEqual(await observe(second), live[i], `block ${heads[i]}`)
    }
  } finally {
    await second.fastify.close()
    await replay.close()
  }
  assert.deepEqual(replay.unknown, [], 'every request was in the recording')
  // The replay served the run (not a market kept from elsewhere): discovery's logs, the batched reads, the head.
  for (const method of ['eth_getLogs', 'eth_call', 'eth_getBlockByNumber'])
    assert.ok((replay.served.get(method) ?? 0) > 0, `${method} served: ${JSON.stringify([...replay.served])}`)
})
