import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, custom, hexToBigInt, type PublicClient } from 'viem'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import { chainDeployments } from '../chains/chainDeployments.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { type DiscoverDeploymentsParameters, discoverDeployments, type DiscoveryProgress } from './discoverDeployments.ts'
import type { MarketStore } from './store/MarketStore.ts'
import { createSqliteMarketStore } from './store/createSqliteMarketStore.ts'

const devnet = useDevnet()
let sm: SmallMarket
let dir: string
beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  dir = mkdtempSync(join(tmpdir(), 'discovery-'))
})
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The devnet behind a node that refuses `eth_getLogs` over more than `maxRange` blocks, counting the calls. */
function cappedNode(maxRange: bigint) {
  const calls = { getLogs: 0, refused: 0 }
  const client = createPublicClient({
    transport: custom(
      {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method === 'eth_getLogs') {
            calls.getLogs++
            const [{ fromBlock, toBlock }] = params as [{ fromBlock: `0x${string}`; toBlock: `0x${string}` }]
            if (hexToBigInt(toBlock) - hexToBigInt(fromBlock) + 1n > maxRange) {
              calls.refused++
              throw new Error(`query exceeds max block range ${maxRange}`)
            }
          }
          return devnet.publicClient.request({ method, params } as never)
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient
  return { client, calls }
}

test('discovery scans each deployment from its start block, splits ranges the node refuses, persists pools and cursors; a restart scans only past the cursor', async () => {
  const deployments = chainDeployments(sm.chain.deployments).map(({ dex, deployment }) => ({
    dex,
    source: deployment.source,
    fromBlock: 0n,
  }))
  const toBlock = await devnet.publicClient.getBlockNumber()
  const path = join(dir, 'market.sqlite')
  const node = cappedNode(8n)
  const progress: DiscoveryProgress[] = []
  const store = createSqliteMarketStore({ path, chainId: 8453 })
  const pools = await discoverDeployments({
    client: node.client,
    deployments,
    adapters: presentAdapters(),
    store,
    toBlock,
    maxBlockRange: 50n,
    onProgress: (p) => progress.push(p),
  })
  const ids = pools
    .filter((p) => !p.skipped)
    .map((p) => p.ref.id)
    .sort()
  assert.deepEqual(
    ids,
    [sm.v2Pair, sm.v3Pool, sm.alienPool, sm.quickswapPool, sm.hydrexPool]
      .map((a) => a.toLowerCase())
      .concat(pools.filter((p) => p.ref.dex === 'UNIV4' && !p.skipped).map((p) => p.ref.id))
      .sort(),
  )
  assert.ok(
    pools.some((p) => p.skipped && /hooks/.test(p.skipped)),
    'the hooked V4 pool is stored as skipped, with why',
  )
  assert.ok(node.calls.refused > 0, "ranges above the node's cap were refused and split")
  const last = progress[progress.length - 1]
  assert.equal(last.allScannedBlocks, last.allTotalBlocks)
  assert.equal(last.allTotalBlocks, (toBlock + 1n) * BigInt(deployments.length))
  store.close()

  // Restart: same file, the chain moved by a few blocks; a new pair is created after the cursor.
  const [, b, c] = sm.tokens
  const pair = (await sm.createV2Pair(b, c)).toLowerCase()
  const later = await devnet.publicClient.getBlockNumber()
  const again = cappedNode(1000n)
  const reopened = createSqliteMarketStore({ path, chainId: 8453 })
  const resumed = await discoverDeployments({
    client: again.client,
    deployments,
    adapters: presentAdapters(),
    store: reopened,
    toBlock: later,
    maxBlockRange: 1000n,
    rescanDepth: 2n,
  })
  assert.ok(
    resumed.some((p) => p.ref.id === pair),
    'the pool created after the cursor is found',
  )
  assert.equal(resumed.length, pools.length + 1)
  assert.equal(again.calls.getLogs, deployments.length, 'one short range per deployment, not a rescan from block 0')
  for (const cursor of reopened.cursors()) assert.equal(cursor.lastScanned, later)
  reopened.close()
  assert.throws(() => createSqliteMarketStore({ path, chainId: 1 }), /belongs to chain 8453, not 1/)
  console.log(
    `discovery: ${pools.length} pools over ${toBlock + 1n} blocks × ${deployments.length} deployments: ${node.calls.getLogs} getLogs (${node.calls.refused} refused and split); restart: ${again.calls.getLogs}`,
  )
})

/**
 * The devnet behind a node that refuses ranges over `maxRange` blocks (read at each call when a
 * function), recording each range asked and the calls in flight.
 */
function recordingNode(maxRange: bigint | (() => bigint), delayMs = 0) {
  const asked: { source: string; fromBlock: bigint; toBlock: bigint; refused: boolean }[] = []
  let inFlight = 0
  let peakInFlight = 0
  const client = createPublicClient({
    transport: custom(
      {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method !== 'eth_getLogs') return devnet.publicClient.request({ method, params } as never)
          inFlight++
          peakInFlight = Math.max(peakInFlight, inFlight)
          try {
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs))
            const [{ fromBlock, toBlock, address }] = params as [{ fromBlock: `0x${string}`; toBlock: `0x${string}`; address: string[] }]
            const range = { source: address[0], fromBlock: hexToBigInt(fromBlock), toBlock: hexToBigInt(toBlock) }
            const cap = typeof maxRange === 'bigint' ? maxRange : maxRange()
            const refused = range.toBlock - range.fromBlock + 1n > cap
            asked.push({ ...range, refused })
            if (refused) throw new Error(`query exceeds max block range ${cap}`)
            return await devnet.publicClient.request({ method, params } as never)
          } finally {
            inFlight--
          }
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient
  return { client, asked, peak: () => peakInFlight }
}

const allDeployments = () =>
  chainDeployments(sm.chain.deployments).map(({ dex, deployment }) => ({ dex, source: deployment.source, fromBlock: 0n }))

/** Every deployment of the small market from block 0, through `client`, into `store`. */
const discover = (
  client: PublicClient,
  store: MarketStore,
  toBlock: bigint,
  options: Omit<Partial<DiscoverDeploymentsParameters>, 'client' | 'store' | 'toBlock'>,
) =>
  discoverDeployments({
    client,
    deployments: allDeployments(),
    adapters: presentAdapters(),
    store,
    toBlock,
    maxBlockRange: 50n,
    ...options,
  })

test('ranges go concurrently within the budget, the range size adapts to the refusals, and every block is asked exactly once', async () => {
  await devnet.testClient.mine({ blocks: 1500 })
  const toBlock = await devnet.publicClient.getBlockNumber()
  const deployments = allDeployments()
  const node = recordingNode(40n, 5)
  const progress: DiscoveryProgress[] = []
  const store = createSqliteMarketStore({ path: join(dir, 'concurrent.sqlite'), chainId: 8453 })
  const pools = await discover(node.client, store, toBlock, { maxBlockRange: 320n, maxInFlight: 3, onProgress: (p) => progress.push(p) })
  assert.equal(node.peak(), 3, 'three calls in flight at once, never more')
  const served = node.asked.filter((r) => !r.refused)
  const refused = node.asked.filter((r) => r.refused)
  // A 320-block range the node refuses is split down to its 40-block parts: 1 + 2 + 4 = 7 refusals.
  // Adapting, only the first ranges in flight pay that; later ones are cut at 40 blocks, and each
  // probe of 80 blocks (one at a time, after 64 clean ranges) costs one refusal.
  const ranges = Math.ceil(Number(toBlock + 1n) / 320) * deployments.length
  const probes = Math.ceil(served.length / 64)
  assert.ok(
    refused.length <= 7 * 3 + probes,
    `${refused.length} refusals for ${served.length} ranges served (${7 * ranges} without adapting): the size adapted, one probe at a time`,
  )
  assert.ok(progress.at(-1)!.rangeBlocks <= 80n, 'the size stays near the cap')
  for (const { source } of deployments) {
    const mine = served.filter((r) => r.source === source.toLowerCase()).sort((a, b) => (a.fromBlock < b.fromBlock ? -1 : 1))
    let next = 0n
    for (const r of mine) {
      assert.equal(r.fromBlock, next, 'no block asked twice, none missed')
      next = r.toBlock + 1n
    }
    assert.equal(next, toBlock + 1n)
  }
  assert.ok(pools.some((p) => p.ref.id === sm.v2Pair.toLowerCase()))
  const last = progress.at(-1)!
  assert.equal(last.allScannedBlocks, last.allTotalBlocks)
  assert.equal(last.etaMs, 0)
  store.close()
})

test('when the node takes larger ranges again, one probe at a time takes the size back up', async () => {
  // Enough blocks for 64 clean ranges of 40 after the rise (the test above mines them; alone, this one does).
  if ((await devnet.publicClient.getBlockNumber()) < 1500n) await devnet.testClient.mine({ blocks: 1500 })
  const toBlock = await devnet.publicClient.getBlockNumber()
  let cap = 40n
  const node = recordingNode(() => cap, 2)
  const progress: DiscoveryProgress[] = []
  const store = createSqliteMarketStore({ path: join(dir, 'regrow.sqlite'), chainId: 8453 })
  await discover(node.client, store, toBlock, {
    maxBlockRange: 320n,
    maxInFlight: 3,
    onProgress: (p) => {
      progress.push(p)
      if (p.ranges === 10) cap = 10_000n
    },
  })
  store.close()
  const sizes = progress.map((p) => p.rangeBlocks)
  assert.ok(sizes.at(-1)! > 40n, `the size grew back from the old cap to ${sizes.at(-1)}`)
  for (const [i, size] of sizes.entries())
    if (i > 0 && size > sizes[i - 1]!) assert.equal(size, sizes[i - 1]! * 2n, 'it grows by doubling, one probe at a time')
  // Past the cap's rise nothing is refused; before it, only the first ranges in flight (7 each).
  assert.ok(node.asked.filter((r) => r.refused).length <= 7 * 3)
})

test('a scan stopped mid-way keeps every range it finished: the restart asks only the blocks it lacks', async () => {
  const toBlock = await devnet.publicClient.getBlockNumber()
  const deployments = allDeployments()
  const path = join(dir, 'stopped.sqlite')
  const first = recordingNode(10_000n, 5)
  const stop = new AbortController()
  let stored = 0
  const store = createSqliteMarketStore({ path, chainId: 8453 })
  await assert.rejects(
    discover(first.client, store, toBlock, {
      maxInFlight: 4,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.ranges === 40) stop.abort()
        stored = p.ranges
      },
    }),
    /discovery stopped/,
  )
  assert.ok(stored >= 40 && stored < 60, `${stored} ranges stored before it stopped`)
  const cursors = store.cursors()
  store.close()
  assert.ok(cursors.length > 0, 'cursors are stored range by range, not when a deployment ends')

  const second = recordingNode(10_000n)
  const reopened = createSqliteMarketStore({ path, chainId: 8453 })
  const pools = await discover(second.client, reopened, toBlock, { rescanDepth: 0n })
  const firstServed = first.asked.filter((r) => !r.refused)
  for (const r of second.asked) {
    const overlap = firstServed.filter((f) => f.source === r.source && f.fromBlock <= r.toBlock && r.fromBlock <= f.toBlock)
    assert.deepEqual(overlap, [], `block range ${r.fromBlock}..${r.toBlock} of ${r.source} was asked again`)
  }
  const blocks = (list: { fromBlock: bigint; toBlock: bigint }[]) => list.reduce((n, r) => n + (r.toBlock - r.fromBlock + 1n), 0n)
  assert.equal(
    blocks(firstServed) + blocks(second.asked),
    (toBlock + 1n) * BigInt(deployments.length),
    'together they cover every block once',
  )
  assert.ok(pools.some((p) => p.ref.id === sm.v2Pair.toLowerCase()))
  for (const cursor of reopened.cursors()) {
    assert.equal(cursor.lastScanned, toBlock)
    assert.deepEqual(cursor.ahead, [])
  }
  reopened.close()
})
