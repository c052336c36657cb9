import { type Address, type PublicClient, parseAbi } from 'viem'
import type { MaverickV2State, PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'

const poolAbi = parseAbi([
  'function tokenA() view returns (address)',
  'function tokenB() view returns (address)',
  'function tokenAScale() view returns (uint256)',
  'function tokenBScale() view returns (uint256)',
  'function tickSpacing() view returns (uint256)',
  'function fee(bool tokenAIn) view returns (uint256)',
  'function getState() view returns ((uint128 reserveA, uint128 reserveB, int64 lastTwaD8, int64 lastLogPriceD8, uint40 lastTimestamp, int32 activeTick, bool isLocked, uint32 binCounter, uint8 protocolFeeRatioD3))',
  'function getTick(int32 tick) view returns ((uint128 reserveA, uint128 reserveB, uint128 totalSupply, uint32[4] binIdsByTick))',
])

/**
 * How many ticks on each side of the active one are read. Liquidity past them is not seen: a trade
 * that would reach it is refused by the solver and the leg's `tickLimit` stops the walk before it,
 * so it costs size, never exactness.
 */
export const MAVERICK_TICK_RADIUS = 64

/** 10^(18 − decimals) for 0..18 decimals: the scales the model takes (the real pool flags more than 18 decimals in the top bit). */
const SCALES = new Set(Array.from({ length: 19 }, (_, d) => 10n ** BigInt(d)))

export type ReadMaverickV2PoolParameters = {
  client: PublicClient
  pool: Address
  /** Every call is pinned to this block. */
  blockNumber: bigint
}

export type ReadMaverickV2PoolReturnType = {
  input: PoolInput
  tokenA: Address
  /** The furthest listed tick holding reserves each way (A in: the highest; B in: the lowest): a leg's `tickLimit`. */
  tickLimits: { aIn: number; bIn: number }
}

/**
 * Reads a Maverick V2 pool at one block into the solver's `maverick_v2` input: one multicall of
 * `tokenA`, `tokenB`, the scales, `tickSpacing`, `fee(true)`, `fee(false)` and `getState()` (the
 * active tick, the protocol's share), then one multicall of `getTick(t)` for every tick within
 * `MAVERICK_TICK_RADIUS` of the active one (each tick's reserves: the sum of its bins', which is
 * all the swap prices from; the bins themselves, `getBin`, only say how liquidity moves after a
 * swap, which the next read sees). Empty ticks are left out.
 * Unusable: a scale that is not 10^(18 − decimals) (a token above 18 decimals), no tick with reserves.
 *
 * @example
 * const { input, tickLimits } = await readMaverickV2Pool({ client, pool, blockNumber })
 * // → input.state: { model: 'maverick_v2', tickSpacing: 10, activeTick: 7, ticks: [[-3, '…', '0'], …] }
 */
export async function readMaverickV2Pool({
  client,
  pool,
  blockNumber,
}: ReadMaverickV2PoolParameters): Promise<ReadMaverickV2PoolReturnType> {
  const id = pool.toLowerCase()
  const unusable = (reason: string) => new PoolUnusableError({ poolId: id, dex: 'MAVERICK_V2', reason })
  const call = (functionName: string, args?: readonly unknown[]) => ({ address: pool, abi: poolAbi, functionName, args })
  const [tokenA, tokenB, scaleA, scaleB, spacing, feeAIn, feeBIn, state] = (await client.multicall({
    allowFailure: false,
    blockNumber,
    contracts: [
      call('tokenA'),
      call('tokenB'),
      call('tokenAScale'),
      call('tokenBScale'),
      call('tickSpacing'),
      call('fee', [true]),
      call('fee', [false]),
      call('getState'),
    ] as never,
  })) as unknown as [Address, Address, bigint, bigint, bigint, bigint, bigint, { activeTick: number; protocolFeeRatioD3: number }]
  if (!SCALES.has(scaleA) || !SCALES.has(scaleB)) throw unusable(`token scales ${scaleA}, ${scaleB} are not 10^(18 − decimals)`)
  const indexes = Array.from({ length: 2 * MAVERICK_TICK_RADIUS + 1 }, (_, k) => state.activeTick - MAVERICK_TICK_RADIUS + k)
  const read = (await client.multicall({
    allowFailure: false,
    blockNumber,
    contracts: indexes.map((tick) => call('getTick', [tick])) as never,
  })) as unknown as { reserveA: bigint; reserveB: bigint }[]
  const ticks: MaverickV2State['ticks'] = []
  indexes.forEach((tick, k) => {
    const { reserveA, reserveB } = read[k]
    if (reserveA !== 0n || reserveB !== 0n) ticks.push([tick, reserveA.toString(), reserveB.toString()])
  })
  if (ticks.length === 0) throw unusable(`no tick within ${MAVERICK_TICK_RADIUS} of the active tick ${state.activeTick} holds reserves`)
  const input: PoolInput = {
    id,
    dex: 'MAVERICK_V2',
    tokens: [tokenA.toLowerCase() as Address, tokenB.toLowerCase() as Address],
    state: {
      model: 'maverick_v2',
      tickSpacing: Number(spacing),
      tokenScales: [scaleA.toString(), scaleB.toString()],
      fees: [feeAIn.toString(), feeBIn.toString()],
      protocolFeeRatioD3: state.protocolFeeRatioD3,
      activeTick: state.activeTick,
      ticks,
    },
  }
  return { input, tokenA: tokenA.toLowerCase() as Address, tickLimits: { aIn: ticks[ticks.length - 1][0], bIn: ticks[0][0] } }
}
