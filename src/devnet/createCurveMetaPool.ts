import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type CreateCurveMetaPoolParameters = {
  devnet: Devnet
  /** The `CurveStableSwapFactory` whose admin may ramp A (`deployCurveStableSwap`). */
  factory: Address
  /** The meta pool's own coin (index 0), at most 18 decimals. */
  coin: { address: Address; decimals: number }
  /** A `CurvePlainPool` of 2 or 3 coins: its LP token is coin 1, its coins the underlying 1... */
  basePool: Address
  /** Amplification, whole (stored times 100). */
  A: bigint
  /** Static swap fee, 1e10 = 100 %. */
  fee: bigint
  /**
   * The pre-factory template (true): the base pool's virtual price cached for 600 s
   * (`base_virtual_price`, `base_cache_updated`); curve-factory's `MetaUSD` (false): read at every swap.
   */
  cachesBaseVirtualPrice: boolean
}
export type CreateCurveMetaPoolReturnType = { pool: Address }

/**
 * Deploys our stand-in of Curve's legacy meta pools (`contracts/curve/CurveMetaPool.sol`: the
 * pre-factory template, which caches the base pool's virtual price, or curve-factory's MetaUSD) over
 * a funded base pool. Empty until its first `add_liquidity(uint256[2], min)` with the coin and the
 * base pool's LP token.
 *
 * @example
 * const { pool } = await createCurveMetaPool({ devnet, factory, coin: usdc, basePool, A: 200n, fee: 4_000_000n, cachesBaseVirtualPrice: true })
 */
export async function createCurveMetaPool({
  devnet,
  factory,
  coin,
  basePool,
  A,
  fee,
  cachesBaseVirtualPrice,
}: CreateCurveMetaPoolParameters): Promise<CreateCurveMetaPoolReturnType> {
  const { CurveMetaPool } = loadStandInArtifacts({ protocol: 'curve' })
  const pool = await deployContractAndWait({
    devnet,
    artifact: CurveMetaPool,
    args: [factory, coin.address, coin.decimals, basePool, A, fee, cachesBaseVirtualPrice],
  })
  return { pool }
}
