import { type Address, getContractAddress } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployAlgebraIntegralParameters = { devnet: Devnet }
export type DeployAlgebraIntegralReturnType = {
  factory: Address
  poolDeployer: Address
  /** `BasePluginV1Factory` (adaptive fee); wired per pool by `createAlgebraPool`. */
  basePluginFactory: Address
}

/**
 * Deploys Algebra Integral 1.2: `AlgebraFactory(poolDeployer)` and `AlgebraPoolDeployer(factory)`
 * need each other's address, so the deployer's address is predicted from the sender's nonce
 * (factory at n, deployer at n + 1); then the base plugin factory.
 *
 * @example
 * const { factory, basePluginFactory } = await deployAlgebraIntegral({ devnet })
 * // → { factory, poolDeployer, basePluginFactory }: the factory at the sender's nonce n, its deployer at n + 1
 */
export async function deployAlgebraIntegral({ devnet }: DeployAlgebraIntegralParameters): Promise<DeployAlgebraIntegralReturnType> {
  const nonce = await devnet.publicClient.getTransactionCount({ address: devnet.account, blockTag: 'pending' })
  const predictedFactory = getContractAddress({ from: devnet.account, nonce: BigInt(nonce) })
  const predictedDeployer = getContractAddress({ from: devnet.account, nonce: BigInt(nonce) + 1n })
  const factory = await deployContractAndWait({ devnet, artifact: loadNpmArtifact({ name: 'AlgebraFactory' }), args: [predictedDeployer] })
  const poolDeployer = await deployContractAndWait({
    devnet,
    artifact: loadNpmArtifact({ name: 'AlgebraPoolDeployer' }),
    args: [predictedFactory],
  })
  if (factory.toLowerCase() !== predictedFactory.toLowerCase() || poolDeployer.toLowerCase() !== predictedDeployer.toLowerCase()) {
    throw new Error(
      `Algebra nonce prediction failed: factory ${factory}/${predictedFactory}, deployer ${poolDeployer}/${predictedDeployer}`,
    )
  }
  const basePluginFactory = await deployContractAndWait({
    devnet,
    artifact: loadNpmArtifact({ name: 'BasePluginV1Factory' }),
    args: [factory],
  })
  return { factory, poolDeployer, basePluginFactory }
}
