import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, createPublicClient, encodeFunctionData, http, numberToHex, parseAbi, type PublicClient } from 'viem'
import { readContract } from 'viem/actions'
import { startRpcProxy, type RpcProxy } from '../../test/fixtures/startRpcProxy.ts'
import type { DexId } from '../../bindings/types.ts'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import type { PoolAdapter, PoolRef } from '../adapters/PoolAdapter.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { readUniswapV2Pool } from '../adapters/state/readUniswapV2Pool.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { uniswapV4PoolId } from '../adapters/poolKeys/uniswapV4PoolId.ts'
import { createBatchedReadClient, DEFAULT_BATCH_CAPS, GETTER_GAS_ESTIMATE } from './createBatchedReadClient.ts'
import { isTransportError } from './isTransportError.ts'
import { readPoolSnapshots } from './readPoolSnapshots.ts'

// Against anvil with the protocols' bytecode, through a counting proxy: every JSON-RPC request the
// reads make is recorded (method and block parameter), so the tests see the batches themselves.
const devnet = useDevnet()
let sm: SmallMarket
let proxy: RpcProxy
let client: PublicClient
/** The `eth_call`s sent since the last `reset()`, each with its block parameter. */
let ethCalls: string[] = []
const reset = () => {
  ethCalls = []
}
const adapterOf = (ref: PoolRef) => {
  const entry = adapterRegistry[ref.dex as DexId]
  assert.equal(entry.status, 'present')
  return (entry as { adapter: PoolAdapter }).adapter
}
const head = () => devnet.publicClient.getBlockNumber({ cacheTime: 0 })
const pairAbi = parseAbi(['function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)'])

/** Every pool of the small market, and two refs that point at the wrong contract (their reads revert without data). */
const refs = (): PoolRef[] => {
  const one = (dex: DexId, address: Address) => adapterOf({ dex } as PoolRef).refOfConfiguredPool({ dex, address }, undefined)
  return [
    one('UNIV2', sm.v2Pair),
    one('UNIV3', sm.v3Pool),
    one('ALIEN_BASE_V3', sm.alienPool),
    one('QUICKSWAP_V4', sm.quickswapPool),
    one('HYDREX', sm.hydrexPool),
    adapterOf({ dex: 'UNIV4' } as PoolRef).refOfConfiguredPool(
      { dex: 'UNIV4', address: uniswapV4PoolId({ key: sm.v4Key }), ...sm.v4Key },
      { source: sm.factories.poolManager },
    ),
    one('UNIV2', sm.v3Pool),
    one('UNIV3', sm.v2Pair),
  ]
}

beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  proxy = await startRpcProxy({ target: devnet.anvil.url })
  client = createPublicClient({
    chain: devnet.publicClient.chain,
    transport: http(proxy.url, {
      retryCount: 0,
      onFetchRequest: (_request, init) => {
        for (const r of [JSON.parse(String(init.body))].flat()) if (r.method === 'eth_call') ethCalls.push(r.params[1])
      },
    }),
  }) as PublicClient
}, 300_000)
afterAll(async () => {
  await proxy?.close()
})

test('every pool of a market read at once: the same snapshots as one read per pool, in a few eth_calls all at the one block; a reverting pool is unusable and its batch-mates are read', async () => {
  const blockNumber = await head()
  const nextBlock = { number: blockNumber + 1n, timestamp: 0n }
  reset()
  const one: Record<string, unknown> = {}
  for (const ref of refs()) {
    try {
      one[`${ref.dex}:${ref.id}`] = (await adapterOf(ref).readPool({ client, ref, blockNumber, nextBlock })).input
    } catch (error) {
      one[`${ref.dex}:${ref.id}`] = 'failed'
      assert.equal(isTransportError(error), false)
    }
  }
  const perPoolCalls = ethCalls.length
  reset()
  const { snapshots, unusable } = await readPoolSnapshots({ client, refs: refs(), adapterOf, blockNumber, nextBlock, concurrency: 8 })
  const batchedCalls = ethCalls.length
  console.log(`8 refs (6 pools, 2 wrong): ${perPoolCalls} eth_calls one pool at a time, ${batchedCalls} batched`)
  assert.deepEqual(
    snapshots.map((s) => s.ref.id),
    refs()
      .slice(0, 6)
      .map((r) => r.id),
  )
  for (const s of snapshots) assert.deepEqual(s.input, one[`${s.ref.dex}:${s.ref.id}`])
  assert.deepEqual(
    unusable.map((u) => `${u.ref.dex}:${u.ref.id}`),
    [`UNIV2:${sm.v3Pool.toLowerCase()}`, `UNIV3:${sm.v2Pair.toLowerCase()}`],
  )
  for (const u of unusable) assert.match(u.reason, /^read failed: .*(reverted|returned no data)/)
  assert.ok(batchedCalls < perPoolCalls, `${batchedCalls} batched vs ${perPoolCalls}`)
  assert.deepEqual(new Set(ethCalls), new Set([numberToHex(blockNumber)]))

  // Twenty times the pools: the same phases, so about the same eth_calls (one pool at a time: 20 times as many).
  const good = refs().slice(0, 6)
  reset()
  await readPoolSnapshots({ client, refs: good, adapterOf, blockNumber, nextBlock, concurrency: 8 })
  const onceCalls = ethCalls.length
  reset()
  const many = await readPoolSnapshots({
    client,
    refs: Array.from({ length: 20 }, () => good).flat(),
    adapterOf,
    blockNumber,
    nextBlock,
    concurrency: 8,
  })
  console.log(`6 pools: ${onceCalls} batched eth_calls; the same 6 pools 20 times over: ${ethCalls.length}`)
  assert.equal(many.snapshots.length, 120)
  assert.equal(many.unusable.length, 0)
  assert.ok(ethCalls.length <= 2 * onceCalls, `${ethCalls.length} eth_calls for 120 pool reads vs ${onceCalls} for 6`)
  assert.deepEqual(new Set(ethCalls), new Set([numberToHex(blockNumber)]))
})

test('the caps cut batches: calls, calldata bytes and estimated gas', async () => {
  const blockNumber = await head()
  const readThree = async (caps: typeof DEFAULT_BATCH_CAPS) => {
    reset()
    const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 8, caps })
    const inputs = await Promise.all([0, 1, 2].map(() => readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber })))
    return { calls: ethCalls.length, inputs }
  }
  // Three reads of three getters each: nine calls.
  const whole = await readThree(DEFAULT_BATCH_CAPS)
  assert.equal(whole.calls, 1)
  assert.equal((await readThree({ ...DEFAULT_BATCH_CAPS, maxCalls: 4 })).calls, 3)
  assert.equal((await readThree({ ...DEFAULT_BATCH_CAPS, maxGas: 2n * GETTER_GAS_ESTIMATE })).calls, 5)
  // Each getter's calldata is its 4-byte selector.
  const bytes = await readThree({ ...DEFAULT_BATCH_CAPS, maxCalldataBytes: 12 })
  assert.equal(bytes.calls, 3)
  assert.deepEqual(bytes.inputs, whole.inputs)
  assert.deepEqual(new Set(ethCalls), new Set([numberToHex(blockNumber)]))
})

test('one block for all: reads stay at the pinned block after the chain moves, and a read of another block is refused', async () => {
  const blockNumber = await head()
  const before = await readUniswapV2Pool({ client, pair: sm.v2Pair, blockNumber })
  assert.ok(await sm.swapV2(true, 10n ** 18n, 10n ** 12n))
  assert.ok((await head()) > blockNumber)
  reset()
  const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 2 })
  assert.deepEqual(await readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber }), before)
  assert.deepEqual(new Set(ethCalls), new Set([numberToHex(blockNumber)]))
  const moved = await readUniswapV2Pool({ client, pair: sm.v2Pair, blockNumber: await head() })
  assert.notDeepEqual(moved, before)
  await assert.rejects(
    readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber: blockNumber + 1n }),
    /at block \d+ through a client pinned to block/,
  )
})

test('a revert with data fails only its call and is not asked again; one without data inside a batch is asked again alone', async () => {
  const blockNumber = await head()
  const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 8 })
  reset()
  const [pair, swap, wrong] = await Promise.allSettled([
    readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber }),
    // The pair refuses a swap that asks for nothing, with its reason string.
    readContract(batched, { address: sm.v2Pair, abi: pairAbi, functionName: 'swap', args: [0n, 0n, sm.v2Pair, '0x'], blockNumber }),
    // No `getReserves` on a V3 pool: a revert without data.
    readUniswapV2Pool({ client: batched, pair: sm.v3Pool, blockNumber }),
  ])
  assert.equal(pair.status, 'fulfilled')
  assert.equal(swap.status, 'rejected')
  assert.match(String((swap as PromiseRejectedResult).reason.message), /INSUFFICIENT_OUTPUT_AMOUNT/)
  assert.equal(wrong.status, 'rejected')
  assert.equal(isTransportError((wrong as PromiseRejectedResult).reason), false)
  // One batch of 7 calls, then the data-less failure alone.
  assert.equal(ethCalls.length, 2)
  // Alone, a call that returns no data answers as the plain client does: `data` undefined.
  const eoa = await batched.call({
    to: '0x000000000000000000000000000000000000d1f3',
    data: encodeFunctionData({ abi: pairAbi, functionName: 'swap', args: [0n, 0n, sm.v2Pair, '0x'] }),
    blockNumber,
  })
  assert.equal(eoa.data, undefined)
})

test('a transport failure rejects the whole read, and every later read through the same client', async () => {
  const blockNumber = await head()
  const nextBlock = { number: blockNumber + 1n, timestamp: 0n }
  proxy.down()
  try {
    const error = await readPoolSnapshots({ client, refs: refs(), adapterOf, blockNumber, nextBlock, concurrency: 8 }).then(
      () => assert.fail('the read resolved with the node down'),
      (e: unknown) => e,
    )
    assert.equal(isTransportError(error), true)
    const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 1 })
    const first = readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber })
    const queued = readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber })
    await assert.rejects(first, (e) => isTransportError(e))
    await assert.rejects(queued, (e) => isTransportError(e))
    proxy.up()
    await assert.rejects(readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber }), (e) => isTransportError(e))
  } finally {
    proxy.up()
  }
  // A fresh client reads again.
  const batched = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 1 })
  assert.equal((await readUniswapV2Pool({ client: batched, pair: sm.v2Pair, blockNumber })).id, sm.v2Pair.toLowerCase())
})

test('a batch the node refuses as a whole (its calldata costs more gas than an eth_call may use) is split in two, down to what it accepts', async () => {
  const rpc = (method: string, params: unknown[]) => devnet.publicClient.request({ method: method as never, params: params as never })
  // anvil gives an eth_call the block gas limit: 200,000 does not cover the gas floor of 90 calls' calldata.
  await rpc('evm_setBlockGasLimit', [numberToHex(200_000n)])
  try {
    await rpc('evm_mine', [])
    const blockNumber = await head()
    const whole = createBatchedReadClient({ client, blockNumber, maxBatchesInFlight: 1 })
    reset()
    const inputs = await Promise.all(Array.from({ length: 30 }, () => readUniswapV2Pool({ client: whole, pair: sm.v2Pair, blockNumber })))
    console.log(`90 getters with a 200,000 gas eth_call: ${ethCalls.length} eth_calls`)
    assert.ok(ethCalls.length > 2, 'the first batch was refused and split')
    const alone = await readUniswapV2Pool({ client: devnet.publicClient, pair: sm.v2Pair, blockNumber })
    for (const input of inputs) assert.deepEqual(input, alone)
  } finally {
    await rpc('evm_setBlockGasLimit', [numberToHex(1_000_000_000n)])
    await rpc('evm_mine', [])
  }
})
