import { type Address, type PublicClient, parseAbi } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import { scanTickBitmap } from './scanTickBitmap.ts'

const uniswapSlot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
])
/** PancakeV3Pool packs two uint32 protocol fees into `feeProtocol`, so its slot0 ABI differs. */
const pancakeSlot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
])
/** Slipstream's slot0 has 6 fields: no feeProtocol. */
const slipstreamSlot0Abi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, bool unlocked)',
])
const poolAbi = parseAbi([
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function fee() view returns (uint24)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

export type ReadUniswapV3PoolParameters = {
  client: PublicClient
  pool: Address
  /**
   * Spec kind to label the pool with; default UNIV3 (same ABI: ALIEN_BASE_V3; PANCAKE_V3 and
   * AERODROME_CL read their own slot0; AERODROME_CL's `fee()` is the current block's, see
   * `readSlipstreamPool` for the fee a quote needs).
   */
  dex?: DexId
  /** Block to read at; default the latest. Every call is pinned to it. */
  blockNumber?: bigint
}

/**
 * Reads a Uniswap V3 pool at one block into the solver's `concentrated` wire input: slot0,
 * liquidity, spacing, fee (one multicall), then the initialized ticks and their liquidityNet from the
 * tick lens (`scanTickBitmap`: the bitmap is scanned inside the EVM, a few eth_calls per pool). A pool whose price is still 0 (created, not
 * initialized) throws `PoolUnusableError`.
 *
 * @example
 * const input = await readUniswapV3Pool({ client, pool, blockNumber })
 * // → { id, dex: 'UNIV3', tokens, state: { model: 'concentrated', sqrtPriceX96, tick, liquidity, tickSpacing, feePips, ticks } }
 * //   a pool never initialized: PoolUnusableError
 */
export async function readUniswapV3Pool({
  client: publicClient,
  pool,
  dex = 'UNIV3',
  blockNumber,
}: ReadUniswapV3PoolParameters): Promise<PoolInput> {
  const slot0Abi = dex === 'PANCAKE_V3' ? pancakeSlot0Abi : dex === 'AERODROME_CL' ? slipstreamSlot0Abi : uniswapSlot0Abi
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
  const { ticks } = await scanTickBitmap({ client: publicClient, source: { kind: 'v3', pool }, tickSpacing, blockNumber: block })

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
      ticks: ticks.map(([t, net]) => [t, net.toString()]),
    },
  }
}
