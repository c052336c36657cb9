import { type Address, type PublicClient, parseAbi } from 'viem'
import type { PoolInput, SolidlyState } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'

const poolAbi = parseAbi([
  'function metadata() view returns (uint256 dec0, uint256 dec1, uint256 r0, uint256 r1, bool st, address t0, address t1)',
  'function factory() view returns (address)',
])
const factoryAbi = parseAbi([
  'function getFee(address pool, bool stable) view returns (uint256)',
  'function isPaused() view returns (bool)',
])

export type ReadAerodromePoolParameters = {
  client: PublicClient
  pool: Address
  /** The pool's factory when known (discovery knows it); read from the pool otherwise. */
  factory?: Address
  /** Every call is pinned to this block. */
  blockNumber: bigint
}

export type ReadAerodromePoolReturnType = { input: PoolInput; factory: Address }

/** `metadata()` holds 10^decimals; the solver takes the count. */
function decimalsOf(scale: bigint, pool: Address, which: string): number {
  let count = 0
  let rest = scale
  while (rest > 1n && rest % 10n === 0n) {
    rest /= 10n
    count++
  }
  if (rest !== 1n || count > 77)
    throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'AERODROME_V2LIKE', reason: `${which} ${scale} is not 10^d` })
  return count
}

/**
 * Reads an Aerodrome pool at one block into the solver's `solidly` input: `metadata()` (the tokens'
 * 10^decimals, reserves, `stable`, tokens) and the factory's `getFee(pool, stable)` in bps (custom,
 * 420 → 0, or the curve's default). A paused factory makes every swap revert: the pool is unusable
 * until a block where it is not.
 *
 * @example
 * const { input } = await readAerodromePool({ client, pool, blockNumber })
 * // → input: { id, dex: 'AERODROME_V2LIKE', tokens, state: { model: 'solidly', feeBps, … } }; PoolUnusableError while paused
 */
export async function readAerodromePool({
  client,
  pool,
  factory: knownFactory,
  blockNumber,
}: ReadAerodromePoolParameters): Promise<ReadAerodromePoolReturnType> {
  const read = <const C extends readonly unknown[]>(contracts: C) =>
    client.multicall({ allowFailure: false, blockNumber, contracts: contracts as never })
  const [metadata, readFactory] = (await read([
    { address: pool, abi: poolAbi, functionName: 'metadata' },
    { address: pool, abi: poolAbi, functionName: 'factory' },
  ])) as [readonly [bigint, bigint, bigint, bigint, boolean, Address, Address], Address]
  const factory = knownFactory ?? readFactory
  const [dec0, dec1, r0, r1, stable, t0, t1] = metadata
  const { feeBps, paused } = await readAerodromeFee({ client, pool, factory, stable, blockNumber })
  if (paused) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'AERODROME_V2LIKE', reason: `factory ${factory} is paused` })
  const state: SolidlyState = {
    model: 'solidly',
    reserves: [r0.toString(), r1.toString()],
    stable,
    decimals: [decimalsOf(dec0, pool, 'decimals0'), decimalsOf(dec1, pool, 'decimals1')],
    feeBps,
  }
  return {
    input: { id: pool.toLowerCase(), dex: 'AERODROME_V2LIKE', tokens: [t0.toLowerCase() as Address, t1.toLowerCase() as Address], state },
    factory,
  }
}

export type ReadAerodromeFeeParameters = { client: PublicClient; pool: Address; factory: Address; stable: boolean; blockNumber: bigint }

/**
 * The factory's fee for the pool (bps) and whether it is paused, at one block: both change without
 * any event of the pool (`setFee` emits nothing at all), so the market reads them every block.
 *
 * @example
 * const { feeBps, paused } = await readAerodromeFee({ client, pool, factory, stable: true, blockNumber })
 * // → e.g. { feeBps: 5, paused: false }: a stable pool at Aerodrome's default fee (a custom fee when set; 420 means 0)
 */
export async function readAerodromeFee({
  client,
  pool,
  factory,
  stable,
  blockNumber,
}: ReadAerodromeFeeParameters): Promise<{ feeBps: number; paused: boolean }> {
  const [fee, paused] = await client.multicall({
    allowFailure: false,
    blockNumber,
    contracts: [
      { address: factory, abi: factoryAbi, functionName: 'getFee', args: [pool, stable] },
      { address: factory, abi: factoryAbi, functionName: 'isPaused' },
    ],
  })
  if (fee > 300n)
    throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'AERODROME_V2LIKE', reason: `fee ${fee} bps above the factory's 300` })
  return { feeBps: Number(fee), paused }
}
