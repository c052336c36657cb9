import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Abi, Hex } from 'viem'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'
import { runInstallScript } from './runInstallScript.ts'

export type BalancerV2ArtifactName = 'Vault' | 'Authorizer'

/**
 * Balancer V2's own Vault or Authorizer, the bytecode deployed on every V2 chain, from
 * `@balancer-labs/v2-deployments` (fetched by `scripts/install-balancer-v2.sh` into
 * `build/balancer-v2/`; the loader runs it, and it returns at once once installed).
 *
 * @example
 * const { abi, bytecode } = await loadBalancerV2Artifact({ name: 'Vault' })
 * // abi: the Vault's 40 entries (swap, joinPool, registerPool, …); bytecode: '0x6101806040…', its creation code as published
 */
export async function loadBalancerV2Artifact({ name }: { name: BalancerV2ArtifactName }): Promise<ContractArtifact> {
  const { root } = compiledContractsPath()
  await runInstallScript({ script: 'install-balancer-v2.sh' })
  const json = JSON.parse(readFileSync(join(root, 'build', 'balancer-v2', `${name}.json`), 'utf8'))
  return { abi: json.abi as Abi, bytecode: json.bytecode as Hex, deployedBytecode: json.deployedBytecode as Hex }
}
