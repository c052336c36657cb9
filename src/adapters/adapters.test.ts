import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, decodeAbiParameters, getAddress, hexToBigInt, toEventSelector, zeroAddress } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { loadNpmArtifact } from '../devnet/loadNpmArtifact.ts'
import { revertToSnapshot } from '../devnet/revertToSnapshot.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { uniswapV4PoolId } from './poolKeys/uniswapV4PoolId.ts'
import { chainDeployments } from '../chains/chainDeployments.ts'
import { fetchLogsInRange } from '../market/fetchLogsInRange.ts'
import { deploySmallMarket, type SmallMarket, type SwapVenue } from '../devnet/deploySmallMarket.ts'
import type { PoolAdapter, PoolRef, PoolSnapshot } from './PoolAdapter.ts'
import { propAmmDexIds } from './propAmm/propAmmDexIds.ts'
import { adapterRegistry } from './registry.ts'

const devnet = useDevnet()
let market: SmallMarket
let solver: Solver

beforeAll(async () => {
  market = await deploySmallMarket({ devnet })
  solver = await loadSolver({ nativeToken: market.chain.weth })
})
afterAll(async () => {
  await solver?.close()
})

const adapter = (dex: keyof typeof adapterRegistry): PoolAdapter => {
  const entry = adapterRegistry[dex]
  assert.equal(entry.status, 'present')
  return (entry as { adapter: PoolAdapter }).adapter
}
const head = async () => hexToBigInt(await devnet.publicClient.request({ method: 'eth_blockNumber' }))

test('discovery: each adapter finds its pools in its factory/manager logs; the V4 pool with hooks is skipped with a reason', async () => {
  const toBlock = await head()
  const found: Record<string, string[]> = {}
  const skipped: string[] = []
  for (const { dex, deployment } of chainDeployments(market.chain.deployments)) {
    const a = adapter(dex as never)
    const logs = await fetchLogsInRange({
      client: devnet.publicClient,
      fromBlock: 0n,
      toBlock,
      topics: a.discoveryTopics,
      address: [deployment.source],
      maxBlockRange: 2000n,
    })
    for (const log of logs) {
      const result = a.poolFromDiscoveryLog(log)
      if ('ref' in result) (found[dex] ??= []).push(result.ref.id)
      else if ('skipped' in result) skipped.push(`${result.skipped.id}: ${result.skipped.reason}`)
    }
  }
  const l = (a: string) => a.toLowerCase()
  assert.deepEqual(found, {
    UNIV2: [l(market.v2Pair)],
    UNIV3: [l(market.v3Pool)],
    ALIEN_BASE_V3: [l(market.alienPool)],
    QUICKSWAP_V4: [l(market.quickswapPool)],
    HYDREX: [l(market.hydrexPool)],
    UNIV4: [uniswapV4PoolId({ key: market.v4Key })],
  })
  assert.equal(skipped.length, 1)
  assert.match(skipped[0], new RegExp(`^${uniswapV4PoolId({ key: market.v4HookedKey })}: hooks 0x0+c000`))
})

test(
  "each adapter's one-block snapshot feeds the solver, and solver.simulate equals what the chain pays",
  { timeout: 300_000 },
  async () => {
    const refs: Record<Exclude<SwapVenue, never>, PoolRef> = {
      v2: adapter('UNIV2').refOfConfiguredPool({ dex: 'UNIV2', address: market.v2Pair }, undefined),
      v3: adapter('UNIV3').refOfConfiguredPool({ dex: 'UNIV3', address: market.v3Pool }, undefined),
      alien: adapter('ALIEN_BASE_V3').refOfConfiguredPool({ dex: 'ALIEN_BASE_V3', address: market.alienPool }, undefined),
      quickswap: adapter('QUICKSWAP_V4').refOfConfiguredPool({ dex: 'QUICKSWAP_V4', address: market.quickswapPool }, undefined),
      hydrex: adapter('HYDREX').refOfConfiguredPool({ dex: 'HYDREX', address: market.hydrexPool }, undefined),
      v4: adapter('UNIV4').refOfConfiguredPool(
        { dex: 'UNIV4', address: uniswapV4PoolId({ key: market.v4Key }), ...market.v4Key },
        { source: market.factories.poolManager },
      ),
    }
    let checked = 0
    for (const [venue, ref] of Object.entries(refs) as [SwapVenue, PoolRef][]) {
      for (const zeroForOne of [true, false]) {
        for (const amountIn of [10n ** 15n, 3n * 10n ** 18n]) {
          const snapshotId = await devnet.testClient.snapshot()
          const blockNumber = await head()
          // The swap runs in the next block, which the devnet stamps 2 s after this one (like Base):
          // the adaptive fee follows block.timestamp, and the reader prices that block's.
          const { timestamp } = await devnet.publicClient.getBlock({ blockNumber })
          const nextBlock = { number: blockNumber + 1n, timestamp: timestamp + BigInt(market.chain.blockTimeSec) }
          const snapshot: PoolSnapshot = await adapter(ref.dex).readPool({ client: devnet.publicClient, ref, blockNumber, nextBlock })
          assert.equal(snapshot.input.id, ref.id)
          assert.equal(snapshot.refreshEveryBlock, venue === 'quickswap', `${venue}: refreshEveryBlock`)
          await solver.upsertPools([snapshot.input])
          const tokenIn = snapshot.input.tokens[zeroForOne ? 0 : 1]
          const { amountOut } = await solver.simulate({ poolId: ref.id, tokenIn, amountIn: amountIn.toString() })
          let paid: bigint
          if (venue === 'v2') {
            assert.ok(await market.swapV2(zeroForOne, amountIn, BigInt(amountOut)), 'the pair refused the solver amount')
            paid = BigInt(amountOut)
          } else {
            paid = await market.swap(venue, zeroForOne, amountIn)
          }
          assert.equal(BigInt(amountOut), paid, `${venue} zeroForOne=${zeroForOne} amountIn=${amountIn}`)
          assert.ok(paid > 0n)
          checked++
          await revertToSnapshot({ testClient: devnet.testClient, id: snapshotId })
        }
      }
    }
    assert.equal(checked, 24)
  },
)

test('a V4 pool with hooks is refused by the reader too (never priced)', async () => {
  const ref: PoolRef = {
    id: uniswapV4PoolId({ key: market.v4HookedKey }),
    dex: 'UNIV4',
    emitter: market.factories.poolManager,
    key: market.v4HookedKey,
  }
  const blockNumber = await head()
  await assert.rejects(
    adapter('UNIV4').readPool({ client: devnet.publicClient, ref, blockNumber, nextBlock: { number: blockNumber + 1n, timestamp: 0n } }),
    /hooks .* are not modelled/,
  )
})

test('leg encoding per kind matches docs/route-legs.md', () => {
  const pool: Address = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd'
  const ref = (dex: keyof typeof adapterRegistry): PoolRef => ({ id: pool, dex, emitter: pool })
  assert.deepEqual(adapter('UNIV2').encodeLeg(ref('UNIV2')), { kind: 'v2_direct', pool: getAddress(pool), feeBps: 30 })
  assert.deepEqual(adapter('UNIV3').encodeLeg(ref('UNIV3')), { kind: 'v3_direct', pool: getAddress(pool) })
  assert.deepEqual(adapter('ALIEN_BASE_V3').encodeLeg(ref('ALIEN_BASE_V3')), { kind: 'v3_direct', pool: getAddress(pool) })
  assert.deepEqual(adapter('PANCAKE_V3').encodeLeg(ref('PANCAKE_V3')), { kind: 'pancake_v3_direct', pool: getAddress(pool) })
  assert.deepEqual(adapter('QUICKSWAP_V4').encodeLeg(ref('QUICKSWAP_V4')), { kind: 'algebra_direct', pool: getAddress(pool) })
  assert.deepEqual(adapter('HYDREX').encodeLeg(ref('HYDREX')), { kind: 'hydrex' })
  const key = {
    currency0: '0x1111111111111111111111111111111111111111',
    currency1: '0x2222222222222222222222222222222222222222',
    fee: 3000,
    tickSpacing: -60 + 120,
    hooks: zeroAddress,
  } as const
  const v4 = adapter('UNIV4').encodeLeg({ id: uniswapV4PoolId({ key }), dex: 'UNIV4', emitter: pool, key })
  assert.equal(v4.kind, 'univ4')
  if (v4.kind !== 'univ4') return
  assert.equal(v4.commands, '0x10')
  assert.equal(v4.inputs.length, 1)
  // abi.encode(PoolKey): five 32-byte words, the same bytes as the key's fields encoded flat.
  assert.equal(v4.inputs[0].length, 2 + 5 * 64)
  const decoded = decodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
    v4.inputs[0],
  )
  assert.deepEqual(decoded, [getAddress(key.currency0), getAddress(key.currency1), 3000, 60, zeroAddress])
  assert.deepEqual(adapter('PANCAKE_V2').encodeLeg(ref('PANCAKE_V2')), { kind: 'v2_direct', pool: getAddress(pool), feeBps: 25 })
  assert.deepEqual(adapter('AERODROME_CL').encodeLeg(ref('AERODROME_CL')), { kind: 'v3_direct', pool: getAddress(pool) })
  // aerodrome_v2: one hop, the leg's direction, the pool's curve and factory (learnt by its read).
  const [tokenIn, tokenOut, factory] = [
    '0x2222222222222222222222222222222222222222',
    '0x1111111111111111111111111111111111111111',
    '0x3333333333333333333333333333333333333333',
  ] as const
  const aerodromeRef = { ...ref('AERODROME_V2LIKE'), factory, stable: true }
  assert.deepEqual(adapter('AERODROME_V2LIKE').encodeLeg(aerodromeRef, { tokenIn, tokenOut }), {
    kind: 'aerodrome_v2',
    routes: [{ from: getAddress(tokenIn), to: getAddress(tokenOut), stable: true, factory: getAddress(factory) }],
  })
  assert.throws(() => adapter('AERODROME_V2LIKE').encodeLeg(ref('AERODROME_V2LIKE'), { tokenIn, tokenOut }), /factory and curve/)
  // pancake_infinity_cl: the PoolKey as JSON, its manager included.
  const infinityKey = {
    currency0: key.currency0,
    currency1: key.currency1,
    hooks: zeroAddress,
    poolManager: pool,
    fee: 2500,
    parameters: `0x${(50n << 16n).toString(16).padStart(64, '0')}`,
  } as const
  assert.deepEqual(adapter('PANCAKE_INFINITY_CL').encodeLeg({ ...ref('PANCAKE_INFINITY_CL'), infinityKey }), {
    kind: 'pancake_infinity_cl',
    poolKey: {
      currency0: getAddress(key.currency0),
      currency1: getAddress(key.currency1),
      hooks: zeroAddress,
      poolManager: getAddress(pool),
      fee: 2500,
      parameters: infinityKey.parameters,
    },
  })
  // dodo_v2: the pool and its base token (from the factory's event or the read).
  const dodoRef: PoolRef = { ...ref('DODO_V2'), dodo: { variant: 'dsp', baseToken: tokenOut } }
  assert.deepEqual(adapter('DODO_V2').encodeLeg(dodoRef), { kind: 'dodo_v2', pool: getAddress(pool), baseToken: getAddress(tokenOut) })
  assert.throws(() => adapter('DODO_V2').encodeLeg(ref('DODO_V2')), /base token/)
  // woofi: the vault's WooRouterV2 (configured with the vault), not the vault.
  const wooRouter = '0x4444444444444444444444444444444444444444'
  assert.deepEqual(adapter('WOOFI').encodeLeg({ ...ref('WOOFI'), entry: wooRouter }), { kind: 'woofi', router: getAddress(wooRouter) })
  assert.throws(() => adapter('WOOFI').encodeLeg(ref('WOOFI')), /no WooRouterV2/)
  // maverick_v2: the direction against token A, the read's furthest tick that way as the limit.
  const maverickRef: PoolRef = {
    ...ref('MAVERICK_V2'),
    maverick: { tokenA: tokenOut.toLowerCase() as Address, tickLimits: { aIn: 12, bIn: -7 } },
  }
  assert.deepEqual(adapter('MAVERICK_V2').encodeLeg(maverickRef, { tokenIn, tokenOut }), {
    kind: 'maverick_v2',
    pool: getAddress(pool),
    tokenAIn: false,
    tickLimit: -7,
  })
  const reverse = adapter('MAVERICK_V2').encodeLeg(maverickRef, { tokenIn: tokenOut, tokenOut: tokenIn })
  assert.ok(reverse.kind === 'maverick_v2')
  assert.equal(reverse.tickLimit, 12)
  assert.throws(() => adapter('MAVERICK_V2').encodeLeg(ref('MAVERICK_V2'), { tokenIn, tokenOut }), /read the pool first/)
  // Every present kind is covered above with the leg kind its adapter declares.
  const refs: Partial<Record<string, PoolRef>> = {
    CURVE: { ...ref('CURVE'), coins: [tokenIn, tokenOut].map((t) => t.toLowerCase() as Address) },
    DODO_V2: dodoRef,
    MAVERICK_V2: maverickRef,
    WOOFI: { ...ref('WOOFI'), entry: wooRouter },
    UNIV4: { id: uniswapV4PoolId({ key }), dex: 'UNIV4', emitter: pool, key },
    AERODROME_V2LIKE: aerodromeRef,
    PANCAKE_INFINITY_CL: { ...ref('PANCAKE_INFINITY_CL'), infinityKey },
    ...Object.fromEntries(propAmmDexIds.map((dex) => [dex, { ...ref(dex), entry: pool }])),
  }
  for (const [dex, entry] of Object.entries(adapterRegistry)) {
    if (entry.status === 'present')
      assert.equal(entry.adapter.encodeLeg(refs[dex] ?? ref(dex as never), { tokenIn, tokenOut }).kind, entry.adapter.legKind, dex)
  }
})

test("the adapters' event topics are events of the protocols' own ABIs (npm artifacts)", () => {
  const topicsOf = (abi: Abi, names: string[]) =>
    abi
      .filter((item) => item.type === 'event' && names.includes(item.name))
      .map((item) => toEventSelector(item as never))
      .sort()
  const v3Pool = loadNpmArtifact({ name: 'UniswapV3Pool' }).abi
  assert.deepEqual([...adapter('UNIV3').stateTopics].sort(), topicsOf(v3Pool, ['Initialize', 'Mint', 'Burn', 'Swap']))
  assert.deepEqual([...adapter('ALIEN_BASE_V3').stateTopics].sort(), topicsOf(v3Pool, ['Initialize', 'Mint', 'Burn', 'Swap']))
  assert.deepEqual(adapter('UNIV3').discoveryTopics, topicsOf(loadNpmArtifact({ name: 'UniswapV3Factory' }).abi, ['PoolCreated']))
  assert.deepEqual(adapter('UNIV2').stateTopics, topicsOf(loadNpmArtifact({ name: 'UniswapV2Pair' }).abi, ['Sync']))
  assert.deepEqual(adapter('UNIV2').discoveryTopics, topicsOf(loadNpmArtifact({ name: 'UniswapV2Factory' }).abi, ['PairCreated']))
  const manager = loadNpmArtifact({ name: 'PoolManager' }).abi
  assert.deepEqual([...adapter('UNIV4').stateTopics].sort(), topicsOf(manager, ['Swap', 'ModifyLiquidity', 'ProtocolFeeUpdated']))
  assert.deepEqual(adapter('UNIV4').discoveryTopics, topicsOf(manager, ['Initialize']))
  const algebraPool = loadNpmArtifact({ name: 'AlgebraPool' }).abi
  const algebraEvents = ['Initialize', 'Swap', 'Mint', 'Burn', 'Fee', 'Plugin', 'PluginConfig', 'TickSpacing']
  assert.deepEqual([...adapter('QUICKSWAP_V4').stateTopics].sort(), topicsOf(algebraPool, algebraEvents))
  assert.deepEqual([...adapter('HYDREX').stateTopics].sort(), topicsOf(algebraPool, algebraEvents))
  assert.deepEqual(adapter('HYDREX').discoveryTopics, topicsOf(loadNpmArtifact({ name: 'AlgebraFactory' }).abi, ['Pool']))
  // Pancake's Swap has two extra fields, so its topic differs from Uniswap's.
  assert.notDeepEqual([...adapter('PANCAKE_V3').stateTopics].sort(), [...adapter('UNIV3').stateTopics].sort())
})
