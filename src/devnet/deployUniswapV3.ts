import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployUniswapV3Parameters = { devnet: Devnet }
export type DeployUniswapV3ReturnType = { factory: Address }

/**
 * Deploys the published `UniswapV3Factory` (tiers 500/10, 3000/60, 10000/200) and enables the
 * 100/1 tier that Base has but the original factory lacks.
 *
 * @example
 * const { factory } = await deployUniswapV3({ devnet })
 * // → { factory }: tiers 100/1, 500/10, 3000/60, 10000/200 enabled
 */
export async function deployUniswapV3({ devnet }: DeployUniswapV3Parameters): Promise<DeployUniswapV3ReturnType> {
  const artifact = loadNpmArtifact({ name: 'UniswapV3Factory' })
  const factory = await deployContractAndWait({ devnet, artifact })
  await writeContractAndWait({ devnet, address: factory, abi: artifact.abi, functionName: 'enableFeeAmount', args: [100, 1] })
  return { factory }
}
