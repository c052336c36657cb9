import { type Address, getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import type { DexId } from '../../bindings/types.ts'
import type { LegData, PoolAdapter } from './PoolAdapter.ts'
import { readAlgebraPool } from './state/readAlgebraPool.ts'

/** Pools of the factory's default deployer; `CustomPool` pools come with custom plugins and are not listened to. */
const factoryEvents = parseAbi(['event Pool(address indexed token0, address indexed token1, address pool)'])
/**
 * Algebra Integral 1.2 pool events that change pricing: price/liquidity/ticks (Initialize, Swap,
 * Mint, Burn), the static fee (Fee), and the plugin or its hook flags (Plugin, PluginConfig), and
 * the spacing. Community fee and vault events only split fees.
 */
const stateEvents = [
  'event Initialize(uint160 price, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 price, uint128 liquidity, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed bottomTick, int24 indexed topTick, uint128 liquidityAmount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed bottomTick, int24 indexed topTick, uint128 liquidityAmount, uint256 amount0, uint256 amount1)',
  'event Fee(uint16 fee)',
  'event Plugin(address newPluginAddress)',
  'event PluginConfig(uint8 newPluginConfig)',
  'event TickSpacing(int24 newTickSpacing)',
] as const

export type CreateAlgebraIntegralAdapterParameters = {
  dex: DexId
  encodeLeg: (pool: Address) => LegData
}

/**
 * An adapter for an Algebra Integral 1.2 deployment: discovery from the factory's `Pool`, state
 * from the tick tree at one block, the fee the plugin will charge (`getCurrentFee()` when the
 * dynamic-fee flag is set, and then the pool is re-read every block because that fee follows the
 * clock).
 *
 * @example
 * export const quickswapV4 = createAlgebraIntegralAdapter({ dex: 'QUICKSWAP_V4', encodeLeg: (pool) => ({ kind: 'algebra_direct', pool }) })
 * // → a PoolAdapter: Pool discovery from the factory, concentrated reads with the plugin's fee, 'algebra_direct' legs
 */
export function createAlgebraIntegralAdapter({ dex, encodeLeg }: CreateAlgebraIntegralAdapterParameters): PoolAdapter {
  const legData = encodeLeg(getAddress('0x0000000000000000000000000000000000000001'))
  return {
    dex,
    legKind: legData.kind,
    ...discoveryByEvent(factoryEvents[0], (args) => ({ ref: oneContractPoolRef(args.pool, dex) })),
    ...stateLogsOfPool(stateEvents),
    refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, dex),
    readPool: async ({ client, ref, blockNumber, nextBlock }) => {
      const { input, dynamicFee } = await readAlgebraPool({ client, pool: ref.emitter, dex, blockNumber, nextBlock })
      return { ref, input, refreshEveryBlock: dynamicFee }
    },
    encodeLeg: (ref) => encodeLeg(getAddress(ref.id)),
  }
}
