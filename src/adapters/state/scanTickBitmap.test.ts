import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { type Address, encodeAbiParameters, encodeFunctionData, hexToBigInt, keccak256, parseAbi } from 'viem'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { uniswapV4PoolId } from '../poolKeys/uniswapV4PoolId.ts'
import { uniswapV4StateSlot } from '../poolKeys/uniswapV4StateSlot.ts'
import { deploySmallMarket, type SmallMarket } from '../../devnet/deploySmallMarket.ts'
import { bitmapWordRange } from './bitmapWordRange.ts'
import { initializedTicksFromBitmap } from './initializedTicksFromBitmap.ts'
import { scanTickBitmap, TICK_LENS_ADDRESS, WORDS_PER_CALL } from './scanTickBitmap.ts'
import { tickLensAbi, tickLensRuntimeCode } from './tickLensArtifact.ts'

const v3Abi = parseAbi([
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
])
const extsloadAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])'])

const devnet = useDevnet()
let market: SmallMarket
let blockNumber: bigint

beforeAll(async () => {
  market = await deploySmallMarket({ devnet })
  for (const venue of ['v3', 'alien', 'v4', 'v3', 'v4'] as const) await market.addLiquidity(venue)
  blockNumber = await devnet.publicClient.getBlockNumber({ cacheTime: 0 })
})

/** The oracle: every bitmap word read one by one through the pool's own getters (the old reader). */
async function scanWordByWord(
  source: { kind: 'v3'; pool: Address } | { kind: 'v4'; poolManager: Address; stateSlot: bigint },
  tickSpacing: number,
) {
  const { minWord, maxWord } = bitmapWordRange({ tickSpacing })
  const positions = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i)
  const client = devnet.publicClient
  const mapSlot = (key: number, slot: bigint) =>
    keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [BigInt(key), slot]))
  const values =
    source.kind === 'v3'
      ? await client.multicall({
          allowFailure: false,
          blockNumber,
          contracts: positions.map((w) => ({ address: source.pool, abi: v3Abi, functionName: 'tickBitmap', args: [w] }) as const),
        })
      : (
          await client.readContract({
            address: source.poolManager,
            abi: extsloadAbi,
            functionName: 'extsload',
            args: [positions.map((w) => mapSlot(w, source.stateSlot + 5n))],
            blockNumber,
          })
        ).map((v) => hexToBigInt(v))
  const words = new Map(positions.map((w, i) => [w, values[i]] as const).filter(([, v]) => v !== 0n))
  const tickList = initializedTicksFromBitmap({ words, tickSpacing })
  const nets =
    source.kind === 'v3'
      ? (
          await client.multicall({
            allowFailure: false,
            blockNumber,
            contracts: tickList.map((t) => ({ address: source.pool, abi: v3Abi, functionName: 'ticks', args: [t] }) as const),
          })
        ).map((info) => info[1])
      : (
          await client.readContract({
            address: source.poolManager,
            abi: extsloadAbi,
            functionName: 'extsload',
            args: [tickList.map((t) => mapSlot(t, source.stateSlot + 4n))],
            blockNumber,
          })
        ).map((v) => BigInt.asIntN(128, hexToBigInt(v) >> 128n))
  return { words, ticks: tickList.map((t, i) => [t, nets[i]] as [number, bigint]) }
}

test('the lens returns exactly the set words and liquidityNets a word-by-word read finds (V3, Alien Base V3, V4)', async () => {
  const v4Source = {
    kind: 'v4' as const,
    poolManager: market.factories.poolManager,
    stateSlot: uniswapV4StateSlot({ poolId: uniswapV4PoolId({ key: market.v4Key }) }),
  }
  const cases = [
    { source: { kind: 'v3' as const, pool: market.v3Pool }, tickSpacing: 60 },
    { source: { kind: 'v3' as const, pool: market.alienPool }, tickSpacing: 10 },
    { source: v4Source, tickSpacing: market.v4Key.tickSpacing },
  ]
  for (const { source, tickSpacing } of cases) {
    const lens = await scanTickBitmap({ client: devnet.publicClient, source, tickSpacing, blockNumber })
    const oracle = await scanWordByWord(source, tickSpacing)
    assert.ok(
      oracle.ticks.length >= 2,
      `${JSON.stringify(source, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}: no liquidity to compare`,
    )
    assert.deepEqual(lens, oracle)
  }
})

test('a chunk of WORDS_PER_CALL words stays far below the 30M block gas limit (a whole spacing-1 range in one call would not)', async () => {
  const { minWord, maxWord } = bitmapWordRange({ tickSpacing: 1 })
  const gasOf = (fromWord: number, toWord: number) =>
    devnet.publicClient.estimateGas({
      to: TICK_LENS_ADDRESS,
      data: encodeFunctionData({ abi: tickLensAbi, functionName: 'scanV3', args: [market.v3Pool, 1, fromWord, toWord] }),
      stateOverride: [{ address: TICK_LENS_ADDRESS, code: tickLensRuntimeCode }],
      blockNumber,
    })
  const chunk = await gasOf(minWord, minWord + WORDS_PER_CALL - 1)
  const whole = await gasOf(minWord, maxWord)
  console.log(`lens gas: ${WORDS_PER_CALL} V3 words ${chunk}, all ${maxWord - minWord + 1} words of a spacing-1 range ${whole}`)
  assert.ok(chunk < 10_000_000n, `${chunk}`)
  assert.ok(whole > 15_000_000n, `${whole}: one call per pool would do; WORDS_PER_CALL could grow`)
  // Reversed ranges are refused, not read as empty.
  await assert.rejects(
    devnet.publicClient.call({
      to: TICK_LENS_ADDRESS,
      data: encodeFunctionData({ abi: tickLensAbi, functionName: 'scanV3', args: [market.v3Pool, 1, 5, 4] }),
      stateOverride: [{ address: TICK_LENS_ADDRESS, code: tickLensRuntimeCode }],
      blockNumber,
    }),
  )
})
