import { type Address, decodeFunctionResult, encodeFunctionData, type PublicClient, parseAbi, zeroAddress } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'
import type { NextBlock } from '../PoolAdapter.ts'
import { PoolUnusableError } from '../errors.ts'
import { initializedTicksFromBitmap } from './initializedTicksFromBitmap.ts'

const poolAbi = parseAbi([
  'function globalState() view returns (uint160 price, int24 tick, uint16 lastFee, uint8 pluginConfig, uint16 communityFee, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function plugin() view returns (address)',
  'function tickTreeRoot() view returns (uint32)',
  'function tickTreeSecondLayer(int16) view returns (uint256)',
  'function tickTable(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint256 liquidityTotal, int128 liquidityDelta, int24 prevTick, int24 nextTick, uint256 outerFeeGrowth0Token, uint256 outerFeeGrowth1Token)',
])
const dynamicFeePluginAbi = parseAbi(['function getCurrentFee() view returns (uint16)'])

/** Plugins.DYNAMIC_FEE: the plugin sets the fee (AlgebraBasePluginV1 recomputes it in beforeSwap). */
export const ALGEBRA_DYNAMIC_FEE_FLAG = 1 << 7
/** TickTree.SECOND_LAYER_OFFSET = ceil(-MIN_TICK / 256). */
const SECOND_LAYER_OFFSET = 3466

export type ReadAlgebraPoolReturnType = {
  input: PoolInput
  /** The fee comes from a dynamic-fee plugin: it moves with time, without any pool event. */
  dynamicFee: boolean
}

export type ReadAlgebraPoolParameters = {
  client: PublicClient
  pool: Address
  dex?: DexId
  blockNumber?: bigint
  /**
   * The block the quote executes in first. A dynamic fee follows the clock, so it is computed for
   * this block's number and timestamp (an `eth_call` block override on the state at `blockNumber`);
   * absent, for `blockNumber` itself.
   */
  nextBlock?: NextBlock
}

/**
 * Reads an Algebra Integral 1.2 pool at one block into the solver's `concentrated` input. Ticks
 * come from the three-level tick tree (root → second layer → `tickTable`, indexed by the RAW tick,
 * word = tick >> 8) and `ticks(t).liquidityDelta`. The fee is the one the swap will be charged:
 * with a dynamic-fee plugin that is `plugin.getCurrentFee()` (AlgebraBasePluginV1 writes it into
 * the pool in `beforeSwap`), not `globalState.lastFee`. That fee moves with time alone (the
 * volatility average grows while the price stays away from its mean), so it is read for `nextBlock`:
 * a swap in the next block pays exactly it, as the plugin recomputes the fee once per timestamp.
 *
 * @example
 * const { input, dynamicFee } = await readAlgebraPool({ client, pool, blockNumber, nextBlock: { number: blockNumber + 1n, timestamp } })
 * // → input: a concentrated PoolInput with the fee a swap in nextBlock pays; dynamicFee: true when the plugin sets it
 */
export async function readAlgebraPool({
  client: publicClient,
  pool,
  dex = 'QUICKSWAP_V4',
  blockNumber,
  nextBlock,
}: ReadAlgebraPoolParameters): Promise<ReadAlgebraPoolReturnType> {
  const block = blockNumber ?? (await publicClient.getBlockNumber({ cacheTime: 0 }))
  const read = <const C extends readonly unknown[]>(contracts: C) =>
    publicClient.multicall({ allowFailure: false, blockNumber: block, batchSize: 40_000, contracts: contracts as never })
  const [globalState, liquidity, tickSpacing, token0, token1, plugin, root] = (await read([
    { address: pool, abi: poolAbi, functionName: 'globalState' },
    { address: pool, abi: poolAbi, functionName: 'liquidity' },
    { address: pool, abi: poolAbi, functionName: 'tickSpacing' },
    { address: pool, abi: poolAbi, functionName: 'token0' },
    { address: pool, abi: poolAbi, functionName: 'token1' },
    { address: pool, abi: poolAbi, functionName: 'plugin' },
    { address: pool, abi: poolAbi, functionName: 'tickTreeRoot' },
  ])) as [readonly [bigint, number, number, number, number, boolean], bigint, number, Address, Address, Address, number]
  const [price, tick, lastFee, pluginConfig] = globalState

  if (price === 0n) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex, reason: 'not initialized (price = 0)' })
  let feePips = lastFee
  const dynamicFee = plugin !== zeroAddress && (pluginConfig & ALGEBRA_DYNAMIC_FEE_FLAG) !== 0
  if (dynamicFee) {
    const { data } = await publicClient.call({
      to: plugin,
      data: encodeFunctionData({ abi: dynamicFeePluginAbi, functionName: 'getCurrentFee' }),
      blockNumber: block,
      ...(nextBlock ? { blockOverrides: { number: nextBlock.number, time: nextBlock.timestamp } } : {}),
    })
    if (!data) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex, reason: `plugin ${plugin} returned no fee` })
    feePips = decodeFunctionResult({ abi: dynamicFeePluginAbi, functionName: 'getCurrentFee', data })
  }

  const rootBits = initializedTicksFromBitmap({ words: new Map([[0, BigInt(root)]]), tickSpacing: 1 })
  const second = (await read(
    rootBits.map((i) => ({ address: pool, abi: poolAbi, functionName: 'tickTreeSecondLayer', args: [i] })),
  )) as bigint[]
  const leafIndices = initializedTicksFromBitmap({
    words: new Map(rootBits.map((i, k) => [i, second[k]] as const)),
    tickSpacing: 1,
  }).map((node) => node - SECOND_LAYER_OFFSET)
  const leaves = (await read(leafIndices.map((i) => ({ address: pool, abi: poolAbi, functionName: 'tickTable', args: [i] })))) as bigint[]
  const tickList = initializedTicksFromBitmap({ words: new Map(leafIndices.map((i, k) => [i, leaves[k]] as const)), tickSpacing: 1 })
  const infos = (await read(tickList.map((t) => ({ address: pool, abi: poolAbi, functionName: 'ticks', args: [t] })))) as (readonly [
    bigint,
    bigint,
    ...unknown[],
  ])[]

  const input: PoolInput = {
    id: pool.toLowerCase(),
    dex,
    tokens: [token0.toLowerCase() as Address, token1.toLowerCase() as Address],
    state: {
      model: 'concentrated',
      sqrtPriceX96: price.toString(),
      tick,
      liquidity: liquidity.toString(),
      tickSpacing,
      feePips,
      ticks: tickList.map((t, i) => [t, infos[i][1].toString()]),
    },
  }
  return { input, dynamicFee }
}
