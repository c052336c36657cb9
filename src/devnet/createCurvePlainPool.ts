import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type CreateCurvePlainPoolParameters = {
  devnet: Devnet
  /** The `CurveStableSwapFactory` whose admin may ramp A (`deployCurveStableSwap`). */
  factory: Address
  /** 2 or 3 coins, at most 18 decimals each. */
  coins: { address: Address; decimals: number }[]
  /** Amplification, whole (stored times 100). */
  A: bigint
  /** Static swap fee, 1e10 = 100 %. */
  fee: bigint
}
export type CreateCurvePlainPoolReturnType = { pool: Address }

/**
 * Deploys our stand-in of Curve's legacy factory plain pool (`contracts/curve/CurvePlainPool.sol`:
 * the Plain2Basic/Plain3Basic template, `int128` indexes, static fee). Empty until its first
 * `add_liquidity(uint256[N], min)`.
 *
 * @example
 * const { pool } = await createCurvePlainPool({ devnet, factory, coins: [usdc, dai], A: 200n, fee: 4_000_000n })
 */
export async function createCurvePlainPool({
  devnet,
  factory,
  coins,
  A,
  fee,
}: CreateCurvePlainPoolParameters): Promise<CreateCurvePlainPoolReturnType> {
  const { CurvePlainPool } = loadStandInArtifacts({ protocol: 'curve' })
  const pool = await deployContractAndWait({
    devnet,
    artifact: CurvePlainPool,
    args: [factory, coins.map((c) => c.address), coins.map((c) => c.decimals), A, fee],
  })
  return { pool }
}
