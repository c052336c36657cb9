import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadBalancerV2Artifact } from './loadBalancerV2Artifact.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployBalancerV2VaultParameters = {
  devnet: Devnet
  /** The wrapped native token the Vault wraps ETH into (`devnet.artifacts.WETH9`'s deployment). */
  weth: Address
}

export type DeployBalancerV2VaultReturnType = { vault: Address; authorizer: Address }

/**
 * Balancer V2's own Vault (its mainnet bytecode) with its Authorizer (admin: the devnet account),
 * the pause window and buffer at the Vault's maxima (90 and 30 days), as deployed.
 *
 * @example
 * const { vault, authorizer } = await deployBalancerV2Vault({ devnet, weth })
 * // vault: Balancer's Vault at a fresh address, WETH() === weth, no pools yet; authorizer: its admin the devnet account
 */
export async function deployBalancerV2Vault({ devnet, weth }: DeployBalancerV2VaultParameters): Promise<DeployBalancerV2VaultReturnType> {
  const authorizer = await deployContractAndWait({
    devnet,
    artifact: await loadBalancerV2Artifact({ name: 'Authorizer' }),
    args: [devnet.account],
  })
  const vault = await deployContractAndWait({
    devnet,
    artifact: await loadBalancerV2Artifact({ name: 'Vault' }),
    args: [authorizer, weth, 90n * 86_400n, 30n * 86_400n],
  })
  return { vault, authorizer }
}
