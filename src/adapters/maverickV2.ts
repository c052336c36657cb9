import { getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import { AdapterError } from './errors.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'
import { readMaverickV2Pool } from './state/readMaverickV2Pool.ts'

/** Maverick V2's factory announces pools with this (none indexed; Maverick's published IMaverickV2Factory). */
const factoryEvents = parseAbi([
  'event PoolCreated(address poolAddress, uint8 protocolFeeRatio, uint256 feeAIn, uint256 feeBIn, uint256 tickSpacing, uint256 lookback, int32 activeTick, address tokenA, address tokenB, uint8 kinds, address accessor)',
])

/**
 * The pool's events that move what the solver prices (Maverick's published IMaverickV2Pool): swaps,
 * liquidity added and removed, bins migrated, the fees and the protocol's share set.
 */
const poolEvents = parseAbi([
  'struct SwapParams { uint256 amount; bool tokenAIn; bool exactOutput; int32 tickLimit; }',
  'struct AddLiquidityParams { uint8 kind; int32[] ticks; uint128[] amounts; }',
  'struct RemoveLiquidityParams { uint32[] binIds; uint128[] amounts; }',
  'event PoolSwap(address sender, address recipient, SwapParams params, uint256 amountIn, uint256 amountOut)',
  'event PoolAddLiquidity(address sender, address recipient, uint256 subaccount, AddLiquidityParams params, uint256 tokenAAmount, uint256 tokenBAmount, uint32[] binIds)',
  'event PoolRemoveLiquidity(address sender, address recipient, uint256 subaccount, RemoveLiquidityParams params, uint256 tokenAOut, uint256 tokenBOut)',
  'event PoolMigrateBinsUpStack(address sender, uint32 binId, uint32 maxRecursion)',
  'event PoolSetVariableFee(uint256 newFeeAIn, uint256 newFeeBIn)',
  'event PoolSetProtocolFeeRatio(uint256 protocolFeeRatioD3)',
])

/**
 * Maverick V2's pools: discovered from the factory's `PoolCreated` (which names token A), or
 * configured; priced by `readMaverickV2Pool` as the solver's `maverick_v2` (every tick within
 * `MAVERICK_TICK_RADIUS` of the active one with its reserves); re-read when the pool logs a swap,
 * a liquidity change, a bin migration or a fee setting. Executed as `maverick_v2 {pool, tokenAIn,
 * tickLimit}` by our router (one `swap` paid in `maverickV2SwapCallback`), the tick limit the
 * furthest tick the read saw holding reserves that way: the same edge past which the solver
 * refuses the trade, so a leg never walks into ticks the quote did not price.
 *
 * @example
 * const leg = maverickV2.encodeLeg(snapshot.ref, { tokenIn, tokenOut }) // { kind: 'maverick_v2', pool, tokenAIn, tickLimit }
 */
export const maverickV2: PoolAdapter = {
  dex: 'MAVERICK_V2',
  legKind: 'maverick_v2',
  ...discoveryByEvent(factoryEvents[0], (args) => ({ ref: oneContractPoolRef(args.poolAddress, 'MAVERICK_V2') })),
  ...stateLogsOfPool(poolEvents.filter((item) => item.type === 'event')),
  refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, 'MAVERICK_V2'),
  readPool: async ({ client, ref, blockNumber }) => {
    const { input, tokenA, tickLimits } = await readMaverickV2Pool({ client, pool: ref.emitter, blockNumber })
    return { ref: { ...ref, maverick: { tokenA, tickLimits } }, input, refreshEveryBlock: false }
  },
  encodeLeg: (ref: PoolRef, direction) => {
    if (!ref.maverick)
      throw new AdapterError(`MAVERICK_V2 pool ${ref.id}: a leg needs the pool's token A and tick limits (read the pool first)`)
    if (!direction) throw new AdapterError(`MAVERICK_V2 pool ${ref.id}: a leg needs its direction`)
    const tokenAIn = direction.tokenIn.toLowerCase() === ref.maverick.tokenA
    const tickLimit = tokenAIn ? ref.maverick.tickLimits.aIn : ref.maverick.tickLimits.bIn
    return { kind: 'maverick_v2', pool: getAddress(ref.id), tokenAIn, tickLimit }
  },
}
