import { type Address, type Hex, type PublicClient, parseAbi } from 'viem'
import type { GyroEclpState, PoolInput } from '../../../bindings/types.ts'
import type { GyroEclpDerived, GyroEclpParams } from './GyroEclpParams.ts'
import { PoolUnusableError } from '../errors.ts'

const vaultAbi = parseAbi([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
])
const poolAbi = parseAbi([
  'struct Vector2 { int256 x; int256 y; }',
  'struct Params { int256 alpha; int256 beta; int256 c; int256 s; int256 lambda; }',
  'struct Derived { Vector2 tauAlpha; Vector2 tauBeta; int256 u; int256 v; int256 w; int256 z; int256 dSq; }',
  'function getScalingFactors() view returns (uint256[])',
  'function getSwapFeePercentage() view returns (uint256)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function getECLPParams() view returns (Params params, Derived derived)',
])

type EclpParams = GyroEclpState['params']
type EclpDerived = GyroEclpState['derived']

export type ReadGyroECLPPoolParameters = {
  client: PublicClient
  vault: Address
  pool: Address
  poolId: Hex
  /** Every call is pinned to this block. */
  blockNumber: bigint
  /** The timestamp of the block the read is priced for (the next one): whether a pause still holds. */
  timestamp: bigint
  /** The E-CLP parameters of an earlier read (immutable in the pool): not read again when given. */
  known?: { params: EclpParams; derived: EclpDerived }
}

/**
 * Reads a Gyroscope E-CLP pool on a Balancer V2 Vault at one block, in one multicall, into the
 * solver's `gyro_eclp` input (docs/solver-wire-format.md): the Vault's `getPoolTokens(poolId)`
 * (tokens in the pool's order, raw balances), the pool's `getScalingFactors()` (decimals times the
 * rate providers' rates of this block), `getSwapFeePercentage()`, `getPausedState()` (a paused
 * pool swaps nothing: unusable) and, unless `known`, `getECLPParams()`. A pool whose tokens are
 * not two, or that answers any of these with a revert (not an E-CLP), is unusable.
 *
 * @example
 * const input = await readGyroECLPPool({ client, vault, pool, poolId, blockNumber, timestamp })
 * // → { id: poolId, dex: 'GYROSCOPE_ECLP', tokens: [t0, t1], state: { model: 'gyro_eclp', balances, scalingFactors, swapFee, params, derived } }
 */
export async function readGyroECLPPool({
  client,
  vault,
  pool,
  poolId,
  blockNumber,
  timestamp,
  known,
}: ReadGyroECLPPoolParameters): Promise<PoolInput> {
  const id = poolId.toLowerCase() as Hex
  const unusable = (reason: string) => new PoolUnusableError({ poolId: id, dex: 'GYROSCOPE_ECLP', reason })
  const calls = [
    { address: vault, abi: vaultAbi, functionName: 'getPoolTokens', args: [id] },
    { address: pool, abi: poolAbi, functionName: 'getScalingFactors' },
    { address: pool, abi: poolAbi, functionName: 'getSwapFeePercentage' },
    { address: pool, abi: poolAbi, functionName: 'getPausedState' },
    ...(known ? [] : [{ address: pool, abi: poolAbi, functionName: 'getECLPParams' }]),
  ] as const
  const results: readonly { status: string; result?: unknown }[] = await client.multicall({
    allowFailure: true,
    blockNumber,
    contracts: calls as unknown as Parameters<PublicClient['multicall']>[0]['contracts'],
  })
  const failed = results.findIndex((r) => r.status !== 'success')
  if (failed >= 0) throw unusable(`${calls[failed].functionName} reverted: not an E-CLP pool of this Vault`)
  const [poolTokens, factors, swapFee, pausedState, eclp] = results.map((r) => r.result) as [
    readonly [readonly Address[], readonly bigint[], bigint],
    readonly bigint[],
    bigint,
    readonly [boolean, bigint, bigint],
    readonly [GyroEclpParams, GyroEclpDerived] | undefined,
  ]
  const [tokens, balances] = poolTokens
  if (tokens.length !== 2 || balances.length !== 2 || factors.length !== 2)
    throw unusable(`${tokens.length} tokens and ${factors.length} scaling factors: an E-CLP has two`)
  if (pausedState[0] && timestamp <= pausedState[2]) throw unusable('paused')
  let params: EclpParams
  let derived: EclpDerived
  if (known) ({ params, derived } = known)
  else {
    const [p, d] = eclp as NonNullable<typeof eclp>
    params = { alpha: `${p.alpha}`, beta: `${p.beta}`, c: `${p.c}`, s: `${p.s}`, lambda: `${p.lambda}` }
    derived = {
      tauAlphaX: `${d.tauAlpha.x}`,
      tauAlphaY: `${d.tauAlpha.y}`,
      tauBetaX: `${d.tauBeta.x}`,
      tauBetaY: `${d.tauBeta.y}`,
      u: `${d.u}`,
      v: `${d.v}`,
      w: `${d.w}`,
      z: `${d.z}`,
      dSq: `${d.dSq}`,
    }
  }
  return {
    id,
    dex: 'GYROSCOPE_ECLP',
    tokens: [tokens[0].toLowerCase() as Address, tokens[1].toLowerCase() as Address],
    state: {
      model: 'gyro_eclp',
      balances: [`${balances[0]}`, `${balances[1]}`],
      scalingFactors: [`${factors[0]}`, `${factors[1]}`],
      swapFee: `${swapFee}`,
      params,
      derived,
    },
  }
}
