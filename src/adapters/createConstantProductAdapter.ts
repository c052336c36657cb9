import { getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter } from './PoolAdapter.ts'
import { readUniswapV2Pool } from './state/readUniswapV2Pool.ts'

const factoryEvents = parseAbi(['event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)'])
/** Every reserve change (swap, mint, burn, sync) ends in `Sync`. */
const pairEvents = parseAbi(['event Sync(uint112 reserve0, uint112 reserve1)'])

export type CreateConstantProductAdapterParameters = {
  dex: Extract<DexId, 'UNIV2' | 'PANCAKE_V2'>
  /** The pair's fee, as its K check applies it (Uniswap V2 30, PancakeSwap V2 25). */
  feeBps: number
}

/**
 * An adapter for a Uniswap-V2-shaped pair kind: discovered from the factory's `PairCreated`,
 * priced from `getReserves()`, refreshed on `Sync`, executed as `v2_direct` with the kind's fee.
 *
 * @example
 * export const pancakeV2 = createConstantProductAdapter({ dex: 'PANCAKE_V2', feeBps: 25 })
 * // → a PoolAdapter: PairCreated discovery, getReserves() reads, 'v2_direct' legs at 25 bps
 */
export function createConstantProductAdapter({ dex, feeBps }: CreateConstantProductAdapterParameters): PoolAdapter {
  return {
    dex,
    legKind: 'v2_direct',
    ...discoveryByEvent(factoryEvents[0], (args) => ({ ref: oneContractPoolRef(args.pair, dex) })),
    ...stateLogsOfPool(pairEvents),
    refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, dex),
    readPool: async ({ client, ref, blockNumber }) => ({
      ref,
      input: await readUniswapV2Pool({ client, pair: ref.emitter, dex, blockNumber }),
      refreshEveryBlock: false,
    }),
    encodeLeg: (ref) => ({ kind: 'v2_direct', pool: getAddress(ref.id), feeBps }),
  }
}
