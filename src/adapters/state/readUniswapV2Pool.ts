import { type Address, type PublicClient, parseAbi } from 'viem'
import type { PoolInput } from '../../../bindings/types.ts'

const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
])

export type ReadUniswapV2PoolParameters = {
  client: PublicClient
  pair: Address
  /** Block to read at; default the latest (fetched once, then every call is pinned to it). */
  blockNumber?: bigint
}

/**
 * Reads a V2 pair at one block (one multicall) into the solver's `constant_product` wire input.
 *
 * @example
 * const pool = await readUniswapV2Pool({ client, pair, blockNumber })
 * await solver.upsertPools([pool])
 */
export async function readUniswapV2Pool({ client, pair, blockNumber }: ReadUniswapV2PoolParameters): Promise<PoolInput> {
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
    dex: 'UNIV2',
    tokens: [token0.toLowerCase() as Address, token1.toLowerCase() as Address],
    state: { model: 'constant_product', reserves: [reserve0.toString(), reserve1.toString()] },
  }
}
