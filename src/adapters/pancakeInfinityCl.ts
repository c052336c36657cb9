import { type Address, type Hex, numberToHex, parseAbi, zeroAddress } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { stateLogsOfManager } from './poolStateLogs.ts'
import { pancakeInfinityClLegData } from './pancakeInfinityClLegData.ts'
import { pancakeInfinityPoolId } from './poolKeys/pancakeInfinityPoolId.ts'
import type { PancakeInfinityPoolKey } from './poolKeys/pancakeInfinityPoolKey.ts'
import { AdapterError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readPancakeInfinityPool } from './state/readPancakeInfinityPool.ts'

const managerEvents = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, address hooks, uint24 fee, bytes32 parameters, uint160 sqrtPriceX96, int24 tick)',
])
/**
 * CL pool manager events keyed by pool id (topic1) that change pricing: swaps, liquidity, the
 * protocol fee (part of the swap fee) and a dynamic LP fee. `Donate` only adds fee growth.
 */
const stateEvents = [
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee, uint16 protocolFee)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)',
  'event DynamicLPFeeUpdated(bytes32 indexed id, uint24 dynamicLPFee)',
] as const

/** LPFeeLibrary.DYNAMIC_FEE_FLAG: the LP fee is whatever the pool's hook sets. */
const DYNAMIC_FEE_FLAG = 0x800000

function refOfKey(key: PancakeInfinityPoolKey, poolManager: Address): PoolRef {
  const lower = (a: Address) => a.toLowerCase() as Address
  const infinityKey = {
    ...key,
    currency0: lower(key.currency0),
    currency1: lower(key.currency1),
    hooks: lower(key.hooks),
    poolManager: lower(key.poolManager),
    parameters: key.parameters.toLowerCase() as Hex,
  }
  return { id: pancakeInfinityPoolId({ key: infinityKey }), dex: 'PANCAKE_INFINITY_CL', emitter: lower(poolManager), infinityKey }
}

/** Why a key cannot be priced exactly, if it cannot. */
function unmodelled(key: PancakeInfinityPoolKey): string | undefined {
  if (key.hooks !== zeroAddress || (BigInt(key.parameters) & 0xffffn) !== 0n)
    return `hooks ${key.hooks}: a hook can change fees and amounts, not priced exactly`
  if (key.fee === DYNAMIC_FEE_FLAG) return 'dynamic LP fee: set by a hook, not priced exactly'
  return undefined
}

/**
 * PancakeSwap Infinity CL pools on the CL pool manager, hookless and static-fee only (a hook can
 * change the fee or the amounts of any swap): discovered from the manager's `Initialize`, read
 * through its getters at one block, refreshed on its Swap/ModifyLiquidity/ProtocolFeeUpdated/
 * DynamicLPFeeUpdated for the pool id. The Vault, not the manager, holds the tokens: a read names
 * it as the pool's `holder` (what token screening probes). Executed as `pancake_infinity_cl`: our router locks the
 * Vault and swaps the key on the manager.
 *
 * @example
 * const leg = pancakeInfinityCl.encodeLeg(ref) // { kind: 'pancake_infinity_cl', poolKey: { currency0, …, parameters } }
 */
export const pancakeInfinityCl: PoolAdapter = {
  dex: 'PANCAKE_INFINITY_CL',
  legKind: 'pancake_infinity_cl',
  ...discoveryByEvent(managerEvents[0], (args, log) => {
    const key = {
      currency0: args.currency0,
      currency1: args.currency1,
      hooks: args.hooks,
      poolManager: log.address,
      fee: args.fee,
      parameters: args.parameters,
    }
    const ref = refOfKey(key, log.address)
    const reason = unmodelled(key)
    return reason ? { skipped: { id: ref.id, dex: 'PANCAKE_INFINITY_CL', reason } } : { ref }
  }),
  ...stateLogsOfManager(stateEvents),
  refOfConfiguredPool: (pool, deployment) => {
    const { currency0, currency1, fee, tickSpacing, hooks = zeroAddress } = pool
    if (!deployment || !currency0 || !currency1 || fee === undefined || tickSpacing === undefined) {
      throw new AdapterError(
        `PANCAKE_INFINITY_CL pool ${pool.address}: a configured pool needs the CL pool manager and currency0, currency1, fee, tickSpacing`,
      )
    }
    const key = {
      currency0,
      currency1,
      hooks,
      poolManager: deployment.source,
      fee,
      parameters: numberToHex(BigInt(tickSpacing) << 16n, { size: 32 }),
    }
    const ref = refOfKey(key, deployment.source)
    if (ref.id !== pool.address.toLowerCase())
      throw new AdapterError(`PANCAKE_INFINITY_CL pool ${pool.address}: its key hashes to ${ref.id}`)
    return ref
  },
  readPool: async ({ client, ref, blockNumber }) => {
    const { input, key, vault } = await readPancakeInfinityPool({ client, poolManager: ref.emitter, poolId: ref.id as Hex, blockNumber })
    const infinityKey = ref.infinityKey ?? refOfKey(key, ref.emitter).infinityKey
    return { ref: { ...ref, infinityKey, holder: vault }, input, refreshEveryBlock: false }
  },
  encodeLeg: (ref) => {
    const key = ref.infinityKey
    if (!key) throw new AdapterError(`PANCAKE_INFINITY_CL pool ${ref.id}: no pool key`)
    return pancakeInfinityClLegData(key)
  },
}
