import { getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import type { DexId } from '../../bindings/types.ts'
import type { PoolAdapter } from './PoolAdapter.ts'
import { readUniswapV3Pool } from './state/readUniswapV3Pool.ts'

const factoryEvents = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
])

/**
 * Events after which a V3-family pool's pricing state (price, active liquidity, ticks) may differ.
 * Collect, Flash and the protocol-fee events move fees owed, not the price or the liquidity.
 * Pancake's `Swap` carries two extra protocol-fee fields, so its topic differs.
 */
export const v3FamilyStateEvents = {
  uniswap: [
    'event Initialize(uint160 sqrtPriceX96, int24 tick)',
    'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
    'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
    'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  ],
  pancake: [
    'event Initialize(uint160 sqrtPriceX96, int24 tick)',
    'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
    'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
    'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 protocolFeesToken0, uint128 protocolFeesToken1)',
  ],
} as const

export type CreateUniswapV3FamilyAdapterParameters = {
  dex: DexId
  /** `uniswap`: Uniswap V3 bytecode (UNIV3, ALIEN_BASE_V3); `pancake`: PancakeV3Pool (uint32 feeProtocol, wider Swap event). */
  flavour: keyof typeof v3FamilyStateEvents
  legKind: 'v3_direct' | 'pancake_v3_direct'
}

/**
 * An adapter for a Uniswap-V3-shaped pool kind: discovery from the factory's `PoolCreated`, state
 * from slot0/liquidity/bitmap/ticks at one block, refresh on Initialize/Mint/Burn/Swap.
 *
 * @example
 * export const alienBaseV3 = createUniswapV3FamilyAdapter({ dex: 'ALIEN_BASE_V3', flavour: 'uniswap', legKind: 'v3_direct' })
 * // → a PoolAdapter: discovery on PoolCreated, reads as concentrated pools, legs 'v3_direct'; one registry row makes it live
 */
export function createUniswapV3FamilyAdapter({ dex, flavour, legKind }: CreateUniswapV3FamilyAdapterParameters): PoolAdapter {
  return {
    dex,
    legKind,
    ...discoveryByEvent(factoryEvents[0], (args) => ({ ref: oneContractPoolRef(args.pool, dex) })),
    ...stateLogsOfPool(v3FamilyStateEvents[flavour]),
    refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, dex),
    readPool: async ({ client, ref, blockNumber }) => ({
      ref,
      input: await readUniswapV3Pool({ client, pool: ref.emitter, dex, blockNumber }),
      refreshEveryBlock: false,
    }),
    encodeLeg: (ref) => ({ kind: legKind, pool: getAddress(ref.id) }),
  }
}
