import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployUniswapV2Parameters = { devnet: Devnet }
export type DeployUniswapV2ReturnType = { factory: Address }

/**
 * Deploys the published `UniswapV2Factory` (feeToSetter = the devnet account).
 *
 * @example
 * const { factory } = await deployUniswapV2({ devnet }) // → { factory }: feeToSetter is the devnet account
 */
export async function deployUniswapV2({ devnet }: DeployUniswapV2Parameters): Promise<DeployUniswapV2ReturnType> {
  const artifact = loadNpmArtifact({ name: 'UniswapV2Factory' })
  return { factory: await deployContractAndWait({ devnet, artifact, args: [devnet.account] }) }
}
