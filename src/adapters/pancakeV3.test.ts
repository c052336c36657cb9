import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, hexToBigInt, maxUint256, parseAbi, toEventSelector } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { loadNpmArtifact } from '../devnet/loadNpmArtifact.ts'
import { revertToSnapshot } from '../devnet/revertToSnapshot.ts'
import { baseMarketTokens } from '../devnet/seed/baseMarketTokens.ts'
import type { SeededPool } from '../devnet/seed/DevnetDescription.ts'
import { type SeededDevnet, startSeededDevnet } from '../devnet/startSeededDevnet.ts'
import { writeContractAndWait } from '../devnet/writeContractAndWait.ts'
import { fetchLogsInRange } from '../market/fetchLogsInRange.ts'
import type { PoolRef } from './PoolAdapter.ts'
import { pancakeV3 } from './pancakeV3.ts'

// PANCAKE_V3 on real PancakeV3Pool bytecode (@pancakeswap/v3-core, deployed through our pool
// deployer by the seeded market): discovery from the factory, one-block snapshots the solver prices
// exactly as the pool pays, and state events the adapter recognises.

const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)'])
const RECIPIENT: Address = '0x000000000000000000000000000000000000cafe'

let devnet: SeededDevnet
let solver: Solver
let pancakePools: SeededPool[]

beforeAll(async () => {
  devnet = await startSeededDevnet({})
  solver = await loadSolver({ nativeToken: devnet.market.weth })
  pancakePools = devnet.market.pools.filter((p) => p.dex === 'PANCAKE_V3')
  // The harness pulls the input from the devnet account (funded with every token by the seed).
  for (const { address } of Object.values(devnet.market.tokens)) {
    await writeContractAndWait({
      devnet,
      address,
      abi: erc20,
      functionName: 'approve',
      args: [devnet.market.helpers.poolHarness, maxUint256],
    })
  }
})
afterAll(async () => {
  await solver?.close()
  await devnet?.stop()
})

const head = async () => hexToBigInt(await devnet.publicClient.request({ method: 'eth_blockNumber' }))

test('discovery: every Pancake pool of the seeded market, and only those, from the factory PoolCreated logs', async () => {
  assert.ok(pancakePools.length >= 10, `only ${pancakePools.length} Pancake pools seeded`)
  const logs = await fetchLogsInRange({
    client: devnet.publicClient,
    fromBlock: 0n,
    toBlock: await head(),
    topics: pancakeV3.discoveryTopics,
    address: [devnet.market.factories.PANCAKE_V3.factory],
    maxBlockRange: 2000n,
  })
  const found = logs.map((log) => {
    const result = pancakeV3.poolFromDiscoveryLog(log)
    assert.ok('ref' in result, 'a Pancake pool was skipped')
    return result.ref
  })
  assert.deepEqual(found.map((r) => r.id).sort(), pancakePools.map((p) => p.address.toLowerCase()).sort())
  for (const ref of found) {
    assert.equal(ref.dex, 'PANCAKE_V3')
    assert.equal(ref.emitter, ref.id)
  }
})

test('the Pancake topics are events of the published PancakeV3Factory/PancakeV3Pool ABIs', () => {
  const topicsOf = (abi: Abi, names: string[]) =>
    abi
      .filter((item) => item.type === 'event' && names.includes(item.name))
      .map((item) => toEventSelector(item as never))
      .sort()
  assert.deepEqual(
    [...pancakeV3.stateTopics].sort(),
    topicsOf(loadNpmArtifact({ name: 'PancakeV3Pool' }).abi, ['Initialize', 'Mint', 'Burn', 'Swap']),
  )
  assert.deepEqual(pancakeV3.discoveryTopics, topicsOf(loadNpmArtifact({ name: 'PancakeV3Factory' }).abi, ['PoolCreated']))
})

test(
  'snapshot → solver.simulate equals what the Pancake pool pays, both directions, small and tick-crossing trades',
  { timeout: 300_000 },
  async () => {
    const priceOf = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t]))
    // Deep and thin pools, every fee tier the seed uses (100, 500, 2500, 10000).
    const chosen = [
      pancakePools.find((p) => p.symbols.includes('WETH') && p.symbols.includes('USDC') && p.fee === 500),
      pancakePools.find((p) => p.symbols.includes('USDC') && p.symbols.includes('DAI')),
      pancakePools.find((p) => p.symbols.includes('AERO') && p.fee === 2500),
      pancakePools.find((p) => p.symbols.includes('DEGEN') && p.fee === 10000),
    ]
    let checked = 0
    let crossingCases = 0
    for (const pool of chosen) {
      assert.ok(pool, 'expected Pancake pool missing from the seed')
      const ref: PoolRef = pancakeV3.refOfConfiguredPool({ dex: 'PANCAKE_V3', address: pool.address }, undefined)
      for (const zeroForOne of [true, false]) {
        const symbolIn = pool.symbols[zeroForOne ? 0 : 1]
        const { decimals, priceUsd } = priceOf[symbolIn]
        for (const usd of [50, 60_000]) {
          const amountIn = (BigInt(Math.round((usd / priceUsd) * 1e6)) * 10n ** BigInt(decimals)) / 10n ** 6n
          const snapshotId = await devnet.testClient.snapshot()
          const blockNumber = await head()
          const snapshot = await pancakeV3.readPool({
            client: devnet.publicClient,
            ref,
            blockNumber,
            nextBlock: { number: blockNumber + 1n, timestamp: 0n },
          })
          assert.equal(snapshot.input.dex, 'PANCAKE_V3')
          assert.equal(snapshot.refreshEveryBlock, false)
          assert.deepEqual(
            snapshot.input.tokens,
            pool.tokens.map((t) => t.toLowerCase()),
          )
          assert.ok(
            snapshot.input.state.model === 'concentrated' &&
              snapshot.input.state.tickSpacing === pool.tickSpacing &&
              snapshot.input.state.feePips === pool.fee,
          )
          await solver.upsertPools([snapshot.input])
          const tokenIn = snapshot.input.tokens[zeroForOne ? 0 : 1]
          const simulated = await solver.simulate({ poolId: ref.id, tokenIn, amountIn: amountIn.toString() })
          if (simulated.crossings > 0) crossingCases++

          const tokenOut: Address = pool.tokens[zeroForOne ? 1 : 0]
          const before = await devnet.publicClient.readContract({
            address: tokenOut,
            abi: erc20,
            functionName: 'balanceOf',
            args: [RECIPIENT],
          })
          const receipt = await writeContractAndWait({
            devnet,
            address: devnet.market.helpers.poolHarness,
            abi: devnet.artifacts.PoolHarness.abi as Abi,
            functionName: 'swapV3',
            args: [pool.address, RECIPIENT, zeroForOne, amountIn, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n, devnet.account],
          })
          const paid: bigint =
            (await devnet.publicClient.readContract({ address: tokenOut, abi: erc20, functionName: 'balanceOf', args: [RECIPIENT] })) -
            before
          const label: string = `${pool.symbols.join('/')} ${pool.fee} zeroForOne=${zeroForOne} amountIn=${amountIn}`
          assert.ok(paid > 0n, label)
          assert.equal(BigInt(simulated.amountOut), paid, label)

          // The swap's own event is one the adapter listens to, attributed to this pool.
          const swapLogs = receipt.logs.filter((l) => l.address.toLowerCase() === ref.id && pancakeV3.stateTopics.includes(l.topics[0]!))
          assert.equal(swapLogs.length, 1, `${label}: Swap event not recognised`)
          assert.equal(pancakeV3.poolIdOfStateLog(swapLogs[0]), ref.id)
          checked++
          await revertToSnapshot({ testClient: devnet.testClient, id: snapshotId })
        }
      }
    }
    assert.equal(checked, 16)
    assert.ok(crossingCases > 0, 'no trade crossed an initialized tick')
    console.log(`PANCAKE_V3: ${checked} swaps equal solver.simulate, ${crossingCases} crossing initialized ticks`)
  },
)
