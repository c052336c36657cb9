import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployAerodromeParameters = { devnet: Devnet }
export type DeployAerodromeReturnType = {
  /** `PoolFactory`: creates pools (`createPool(a, b, stable)`), holds the fees; the devnet account manages fees and pausing. */
  factory: Address
  /** The `Pool` implementation every pool is an EIP-1167 clone of. */
  implementation: Address
}

/**
 * Deploys our Aerodrome stand-ins (`contracts/aerodrome/`): the pool implementation, then the
 * factory that clones it (stable fee 5 bps, volatile 30 bps).
 *
 * @example
 * const { factory } = await deployAerodrome({ devnet }) // → { factory }: stable pools at 5 bps, volatile at 30 bps
 */
export async function deployAerodrome({ devnet }: DeployAerodromeParameters): Promise<DeployAerodromeReturnType> {
  const { Pool, PoolFactory } = loadStandInArtifacts({ protocol: 'aerodrome' })
  const implementation = await deployContractAndWait({ devnet, artifact: Pool })
  const factory = await deployContractAndWait({ devnet, artifact: PoolFactory, args: [implementation] })
  return { factory, implementation }
}
