import { getAddress, parseAbi } from 'viem'
import { discoveryByEvent } from './discoveryByEvent.ts'
import { oneContractPoolRef } from './oneContractPoolRef.ts'
import { stateLogsOfPool } from './poolStateLogs.ts'
import { v3FamilyStateEvents } from './createUniswapV3FamilyAdapter.ts'
import type { PoolAdapter } from './PoolAdapter.ts'
import { readSlipstreamFee, readSlipstreamPool } from './state/readSlipstreamPool.ts'

/** Slipstream's factory keys pools by tick spacing (indexed), not by fee: another topic than V3's. */
const factoryEvents = parseAbi([
  'event PoolCreated(address indexed token0, address indexed token1, int24 indexed tickSpacing, address pool)',
])

/**
 * Aerodrome Slipstream pools: V3 math keyed by tick spacing, discovered from the CLFactory's
 * `PoolCreated`; price, liquidity and ticks re-read on the V3 events (Initialize, Mint, Burn, Swap:
 * Slipstream keeps Uniswap's signatures), and the fee with its dynamic module's parameters re-read
 * every block for the block after: the factory's swap-fee module answers `fee()`, and its dynamic
 * fee follows the clock (and the tick) with no event.
 * Executed as `v3_direct` (`uniswapV3SwapCallback`, from the pool clone being called).
 *
 * @example
 * const leg = aerodromeCl.encodeLeg(ref) // { kind: 'v3_direct', pool }
 */
export const aerodromeCl: PoolAdapter = {
  dex: 'AERODROME_CL',
  legKind: 'v3_direct',
  ...discoveryByEvent(factoryEvents[0], (args) => ({ ref: oneContractPoolRef(args.pool, 'AERODROME_CL') })),
  ...stateLogsOfPool(v3FamilyStateEvents.uniswap),
  refOfConfiguredPool: (pool) => oneContractPoolRef(pool.address, 'AERODROME_CL'),
  readPool: async ({ client, ref, blockNumber, nextBlock }) => ({
    ref,
    input: await readSlipstreamPool({ client, pool: ref.emitter, blockNumber, nextBlock }),
    refreshEveryBlock: true,
  }),
  readVolatile: async ({ client, blockNumber, nextBlock, previous }) => {
    const { input } = previous
    if (input.state.model !== 'concentrated') throw new Error(`AERODROME_CL pool ${previous.ref.id}: no previous concentrated read`)
    const fee = await readSlipstreamFee({ client, pool: previous.ref.emitter, blockNumber, nextBlock })
    const { dynamicFee: _before, ...state } = input.state
    return { ...previous, input: { ...input, state: { ...state, ...fee } } }
  },
  encodeLeg: (ref) => ({ kind: 'v3_direct', pool: getAddress(ref.id) }),
}
