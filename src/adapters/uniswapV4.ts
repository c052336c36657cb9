import { type Address, encodeAbiParameters, getAddress, type Hex, parseAbi, zeroAddress } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { stateLogsOfManager } from './poolStateLogs.ts'
import { uniswapV4PoolId, uniswapV4PoolKeyAbi } from './poolKeys/uniswapV4PoolId.ts'
import type { UniswapV4PoolKey } from './poolKeys/uniswapV4PoolKey.ts'
import { AdapterError, PoolUnusableError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readUniswapV4Pool } from './state/readUniswapV4Pool.ts'

const managerEvents = parseAbi([
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
])
/**
 * PoolManager events keyed by pool id (topic1) that change pricing: swaps, liquidity, and the
 * protocol fee (part of the swap fee). `Donate` only adds fee growth.
 */
const stateEvents = [
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)',
] as const

/** The Universal Router's command number for a V4 swap (docs/route-legs.md). */
const V4_SWAP_COMMAND: Hex = '0x10'

function refOfKey(key: UniswapV4PoolKey, poolManager: Address): PoolRef {
  const lower = (a: Address) => a.toLowerCase() as Address
  const normalised = { ...key, currency0: lower(key.currency0), currency1: lower(key.currency1), hooks: lower(key.hooks) }
  return { id: uniswapV4PoolId({ key: normalised }).toLowerCase(), dex: 'UNIV4', emitter: lower(poolManager), key: normalised }
}

/**
 * Uniswap V4 pools on the singleton PoolManager, hookless only: a hook can change the fee or the
 * amounts of any swap, so pools with hooks are skipped with a reason. State comes from `extsload`
 * at one block; changes are the manager's Swap/ModifyLiquidity/ProtocolFeeUpdated for the pool id.
 * Executed as `univ4` with the ABI-encoded PoolKey.
 *
 * @example
 * const leg = uniswapV4.encodeLeg(ref) // { kind: 'univ4', commands: '0x10', inputs: [abi.encode(key)] }
 */
export const uniswapV4: PoolAdapter = {
  dex: 'UNIV4',
  legKind: 'univ4',
  ...discoveryByEvent(managerEvents[0], (args, log) => {
    const ref = refOfKey(
      { currency0: args.currency0, currency1: args.currency1, fee: args.fee, tickSpacing: args.tickSpacing, hooks: args.hooks },
      log.address,
    )
    if (args.hooks !== zeroAddress) {
      return {
        skipped: { id: ref.id, dex: 'UNIV4', reason: `hooks ${args.hooks}: a hook can change fees and amounts, not priced exactly` },
      }
    }
    return { ref }
  }),
  ...stateLogsOfManager(stateEvents),
  refOfConfiguredPool: (pool, deployment) => {
    const { currency0, currency1, fee, tickSpacing, hooks = zeroAddress } = pool
    if (!deployment || !currency0 || !currency1 || fee === undefined || tickSpacing === undefined) {
      throw new AdapterError(
        `UNIV4 pool ${pool.address}: a configured V4 pool needs the PoolManager and currency0, currency1, fee, tickSpacing`,
      )
    }
    const ref = refOfKey({ currency0, currency1, fee, tickSpacing, hooks }, deployment.source)
    if (ref.id !== pool.address.toLowerCase()) throw new AdapterError(`UNIV4 pool ${pool.address}: its key hashes to ${ref.id}`)
    return ref
  },
  readPool: async ({ client, ref, blockNumber }) => {
    if (!ref.key) throw new AdapterError(`UNIV4 pool ${ref.id}: no pool key`)
    if (ref.key.hooks !== zeroAddress)
      throw new PoolUnusableError({ poolId: ref.id, dex: 'UNIV4', reason: `hooks ${ref.key.hooks} are not modelled` })
    const input = await readUniswapV4Pool({ client, poolManager: ref.emitter, key: ref.key, blockNumber })
    return { ref, input: { ...input, id: input.id.toLowerCase() }, refreshEveryBlock: false }
  },
  encodeLeg: (ref) => {
    if (!ref.key) throw new AdapterError(`UNIV4 pool ${ref.id}: no pool key`)
    const { currency0, currency1, fee, tickSpacing, hooks } = ref.key
    const key = { currency0: getAddress(currency0), currency1: getAddress(currency1), fee, tickSpacing, hooks: getAddress(hooks) }
    return { kind: 'univ4', commands: V4_SWAP_COMMAND, inputs: [encodeAbiParameters(uniswapV4PoolKeyAbi, [key])] }
  },
}
