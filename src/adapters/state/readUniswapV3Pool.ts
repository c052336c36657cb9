import { type Address, type PublicClient, parseAbi } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import { bitmapWordRange } from './bitmapWordRange.ts'
import { initializedTicksFromBitmap } from './initializedTicksFromBitmap.ts'

const uniswapSlot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
])
/** PancakeV3Pool packs two uint32 protocol fees into `feeProtocol`, so its slot0 ABI differs. */
const pancakeSlot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
])
const poolAbi = parseAbi([
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function fee() view returns (uint24)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
])

export type ReadUniswapV3PoolParameters = {
  client: PublicClient
  pool: Address
  /** Spec kind to label the pool with; default UNIV3 (same ABI: ALIEN_BASE_V3; PANCAKE_V3 reads its own slot0). */
  dex?: DexId
  /** Block to read at; default the latest. Every call is pinned to it. */
  blockNumber?: bigint
}

/**
 * Reads a Uniswap V3 pool at one block into the solver's `concentrated` wire input: slot0,
 * liquidity, spacing, fee, then every bitmap word (multicall, chunked under anvil's body limit) and
 * `ticks(t).liquidityNet` of every initialized tick. A pool whose price is still 0 (created, not
 * initialized) throws `PoolUnusableError`.
 *
 * @example
 * const input = await readUniswapV3Pool({ client, pool, blockNumber })
 */
export async function readUniswapV3Pool({
  client: publicClient,
  pool,
  dex = 'UNIV3',
  blockNumber,
}: ReadUniswapV3PoolParameters): Promise<PoolInput> {
  const slot0Abi = dex === 'PANCAKE_V3' ? pancakeSlot0Abi : uniswapSlot0Abi
  const block = blockNumber ?? (await publicClient.getBlockNumber({ cacheTime: 0 }))
  const read = <const C extends readonly unknown[]>(contracts: C) =>
    publicClient.multicall({ allowFailure: false, blockNumber: block, batchSize: 40_000, contracts: contracts as never })
  const [slot0, liquidity, tickSpacing, fee, token0, token1] = (await read([
    { address: pool, abi: slot0Abi, functionName: 'slot0' },
    { address: pool, abi: poolAbi, functionName: 'liquidity' },
    { address: pool, abi: poolAbi, functionName: 'tickSpacing' },
    { address: pool, abi: poolAbi, functionName: 'fee' },
    { address: pool, abi: poolAbi, functionName: 'token0' },
    { address: pool, abi: poolAbi, functionName: 'token1' },
  ])) as [readonly [bigint, number, ...unknown[]], bigint, number, number, Address, Address]

  if (slot0[0] === 0n) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex, reason: 'not initialized (sqrtPriceX96 = 0)' })
  const { minWord, maxWord } = bitmapWordRange({ tickSpacing })
  const positions = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i)
  const wordValues = (await read(
    positions.map((w) => ({ address: pool, abi: poolAbi, functionName: 'tickBitmap', args: [w] })),
  )) as bigint[]
  const words = new Map(positions.map((w, i) => [w, wordValues[i]] as const).filter(([, v]) => v !== 0n))
  const tickList = initializedTicksFromBitmap({ words, tickSpacing })
  const infos = (await read(
    tickList.map((t) => ({ address: pool, abi: poolAbi, functionName: 'ticks', args: [t] })),
  )) as (readonly [bigint, bigint, ...unknown[]])[]

  return {
    id: pool.toLowerCase(),
    dex,
    tokens: [token0.toLowerCase() as Address, token1.toLowerCase() as Address],
    state: {
      model: 'concentrated',
      sqrtPriceX96: slot0[0].toString(),
      tick: slot0[1],
      liquidity: liquidity.toString(),
      tickSpacing,
      feePips: fee,
      ticks: tickList.map((t, i) => [t, infos[i][1].toString()]),
    },
  }
}
