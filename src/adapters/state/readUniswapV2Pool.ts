import { type Address, type PublicClient, parseAbi } from 'viem'
import type { DexId, PoolInput } from '../../../bindings/types.ts'

const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

export type ReadUniswapV2PoolParameters = {
  client: PublicClient
  pair: Address
  /** Kind to label the pair with: UNIV2 (default) or PANCAKE_V2 (same pair ABI, 25 bps). */
  dex?: Extract<DexId, 'UNIV2' | 'PANCAKE_V2'>
  /** Block to read at; default the latest (fetched once, then every call is pinned to it). */
  blockNumber?: bigint
}

/**
 * Reads a V2-shaped pair (Uniswap V2, PancakeSwap V2) at one block (one multicall) into the
 * solver's `constant_product` wire input; the fee comes from the kind's registry entry.
 *
 * @example
 * const pool = await readUniswapV2Pool({ client, pair, blockNumber })
 * // → { id: pair (lowercase), dex: 'UNIV2', tokens: [token0, token1], state: { model: 'constant_product', reserves: ['…', '…'] } }
 * await solver.upsertPools([pool])
 */
export async function readUniswapV2Pool({ client, pair, dex = 'UNIV2', blockNumber }: ReadUniswapV2PoolParameters): Promise<PoolInput> {
  const block = blockNumber ?? (await client.getBlockNumber({ cacheTime: 0 }))
  const [[reserve0, reserve1], token0, token1] = await client.multicall({
    allowFailure: false,
    blockNumber: block,
    contracts: [
      { address: pair, abi: pairAbi, functionName: 'getReserves' },
      { address: pair, abi: pairAbi, functionName: 'token0' },
      { address: pair, abi: pairAbi, functionName: 'token1' },
    ],
  })
  return {
    id: pair.toLowerCase(),
    dex,
    tokens: [token0.toLowerCase() as Address, token1.toLowerCase() as Address],
    state: { model: 'constant_product', reserves: [reserve0.toString(), reserve1.toString()] },
  }
}
