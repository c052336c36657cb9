import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, type PublicClient, parseAbi, zeroAddress } from 'viem'
import type { PoolInput, SlipstreamDynamicFee } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import type { NextBlock } from '../PoolAdapter.ts'
import { readUniswapV3Pool } from './readUniswapV3Pool.ts'

const poolAbi = parseAbi([
  'function fee() view returns (uint24)',
  'function factory() view returns (address)',
  'function tickSpacing() view returns (int24)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, bool unlocked)',
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
])
const factoryAbi = parseAbi(['function swapFeeModule() view returns (address)', 'function tickSpacingToFee(int24) view returns (uint24)'])
const moduleAbi = parseAbi([
  'function dynamicFeeConfig(address) view returns (uint24 baseFee, uint24 feeCap, uint64 scalingFactor)',
  'function defaultScalingFactor() view returns (uint256)',
  'function defaultFeeCap() view returns (uint256)',
  'function secondsAgo() view returns (uint32)',
  'function MIN_SECONDS_AGO() view returns (uint32)',
])

export type ReadSlipstreamPoolParameters = {
  client: PublicClient
  pool: Address
  /** Every call is pinned to this block. */
  blockNumber: bigint
  /** The block a quote executes in first: the fee is read for it (see `readSlipstreamFee`). */
  nextBlock: NextBlock
}

export type SlipstreamFee = { feePips: number; dynamicFee?: SlipstreamDynamicFee }

/**
 * Reads a Slipstream (Aerodrome CL) pool at one block into the solver's `concentrated` input: the
 * V3 reader with the 6-field `slot0` (ticks through the lens: the same `tickBitmap`/`ticks`
 * getters), then the fee as the next block will charge it, with the dynamic fee module's
 * parameters when the factory has one (the fee then follows the tick within a block).
 *
 * @example
 * const input = await readSlipstreamPool({ client, pool, blockNumber, nextBlock })
 * // → { id, dex: 'AERODROME_CL', tokens, state: { model: 'concentrated', …, feePips, dynamicFee? } }
 */
export async function readSlipstreamPool({ client, pool, blockNumber, nextBlock }: ReadSlipstreamPoolParameters): Promise<PoolInput> {
  const [input, fee] = await Promise.all([
    readUniswapV3Pool({ client, pool, dex: 'AERODROME_CL', blockNumber }),
    readSlipstreamFee({ client, pool, blockNumber, nextBlock }),
  ])
  if (input.state.model !== 'concentrated') throw new Error(`AERODROME_CL pool ${pool}: not a concentrated state`)
  return { ...input, state: { ...input.state, ...fee } }
}

/**
 * The fee a swap in `nextBlock` pays, and its formula: `fee()` asks the factory's swap-fee module,
 * whose dynamic fee (base + K·|tick − TWAP tick|, capped) follows the oracle's time-weighted tick,
 * i.e. the clock. Every read is an `eth_call` on the state at `blockNumber` with the next block's
 * number and timestamp (a block override): with no event since, the state is the same then. The
 * module's parameters and that block's TWAP tick go to the solver, which applies the formula to
 * the tick each swap starts from (a split plan's second swap through the pool pays the fee the
 * first one left) and refuses the pool when the formula does not give `fee()`.
 *
 * @example
 * const { feePips, dynamicFee } = await readSlipstreamFee({ client, pool, blockNumber, nextBlock: { number: blockNumber + 1n, timestamp } })
 * // → feePips: what fee() answers in nextBlock; dynamicFee: the module's parameters and TWAP tick (absent for a static fee)
 */
export async function readSlipstreamFee({ client, pool, blockNumber, nextBlock }: ReadSlipstreamPoolParameters): Promise<SlipstreamFee> {
  const blockOverrides = { number: nextBlock.number, time: nextBlock.timestamp }
  const call = async <const A extends readonly unknown[], N extends string>(
    to: Address,
    abi: A,
    functionName: N,
    args: readonly unknown[] = [],
  ) => {
    const { data } = await client.call({
      to,
      data: encodeFunctionData({ abi: abi as never, functionName, args } as never),
      blockNumber,
      blockOverrides,
    })
    if (!data) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'AERODROME_CL', reason: `${functionName} returned nothing` })
    return decodeFunctionResult({ abi: abi as never, functionName, data } as never) as unknown
  }
  const read = <const C extends readonly unknown[]>(contracts: C) =>
    client.multicall({ allowFailure: false, blockNumber, contracts: contracts as never })
  const [feePips, factory, tickSpacing, slot0] = (await Promise.all([
    call(pool, poolAbi, 'fee'),
    call(pool, poolAbi, 'factory'),
    call(pool, poolAbi, 'tickSpacing'),
    call(pool, poolAbi, 'slot0'),
  ])) as [number, Address, number, readonly [bigint, number, number, number, number, boolean]]
  const [module, spacingFeePips] = (await read([
    { address: factory, abi: factoryAbi, functionName: 'swapFeeModule' },
    { address: factory, abi: factoryAbi, functionName: 'tickSpacingToFee', args: [tickSpacing] },
  ])) as [Address, number]
  if (module === zeroAddress) return { feePips }
  const [config, defaultScalingFactor, defaultFeeCap, secondsAgo, minSecondsAgo] = (await read([
    { address: module, abi: moduleAbi, functionName: 'dynamicFeeConfig', args: [pool] },
    { address: module, abi: moduleAbi, functionName: 'defaultScalingFactor' },
    { address: module, abi: moduleAbi, functionName: 'defaultFeeCap' },
    { address: module, abi: moduleAbi, functionName: 'secondsAgo' },
    { address: module, abi: moduleAbi, functionName: 'MIN_SECONDS_AGO' },
  ]).catch(() => {
    throw new PoolUnusableError({
      poolId: pool.toLowerCase(),
      dex: 'AERODROME_CL',
      reason: `swap-fee module ${module} is not the dynamic module we model: its fee could change within a transaction`,
    })
  })) as [readonly [number, number, bigint], bigint, bigint, number, number]
  const [baseFeePips, poolFeeCap, poolScalingFactor] = config
  // The module's rule: a pool without its own K takes both defaults, K and cap.
  const [scalingFactor, feeCapPips] =
    poolScalingFactor === 0n ? [defaultScalingFactor, defaultFeeCap] : [poolScalingFactor, BigInt(poolFeeCap)]
  // The dynamic part is on once the oracle holds secondsAgo / MIN_SECONDS_AGO observations and reaches back secondsAgo.
  let twapTick: number | null = null
  if (slot0[3] >= Math.floor(secondsAgo / minSecondsAgo)) {
    twapTick = await (call(pool, poolAbi, 'observe', [[secondsAgo, 0]]) as Promise<readonly [readonly bigint[], readonly bigint[]]>).then(
      ([cumulatives]) => Number(BigInt.asIntN(24, (cumulatives[1] - cumulatives[0]) / BigInt(secondsAgo))),
      () => null,
    )
  }
  return {
    feePips,
    dynamicFee: { baseFeePips, spacingFeePips, scalingFactor: scalingFactor.toString(), feeCapPips: Number(feeCapPips), twapTick },
  }
}
