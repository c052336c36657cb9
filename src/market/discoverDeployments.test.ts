import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, createPublicClient, custom, hexToBigInt, type PublicClient } from 'viem'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import type { DexId } from '../../bindings/types.ts'
import { type Devnet, startDevnet } from '../devnet/startDevnet.ts'
import { discoverDeployments, type DiscoveryProgress } from './discoverDeployments.ts'
import { createSqliteMarketStore } from './store/createSqliteMarketStore.ts'

let devnet: Devnet
let sm: SmallMarket
let dir: string
beforeAll(async () => {
  devnet = await startDevnet({})
  sm = await deploySmallMarket({ devnet })
  dir = mkdtempSync(join(tmpdir(), 'discovery-'))
})
afterAll(async () => {
  await devnet?.stop()
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
  const deployments = (Object.entries(sm.chain.deployments) as [DexId, { source: Address; fromBlock?: bigint }][]).map(([dex, d]) => ({
    dex,
    source: d.source,
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
