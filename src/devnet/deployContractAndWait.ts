import { type Abi, type Address, encodeDeployData } from 'viem'
import type { ContractArtifact } from '../artifacts/loadContractArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { sendAndWait } from './sendAndWait.ts'

export type DeployContractAndWaitParameters = {
  devnet: Devnet
  artifact: ContractArtifact
  args?: readonly unknown[]
  from?: Address
}

/**
 * Deploys an artifact and returns its address (throws if the creation reverted).
 *
 * @example
 * const weth = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
 * // → the new WETH9's address; an Error if the creation reverted
 */
export async function deployContractAndWait({ devnet, artifact, args = [], from }: DeployContractAndWaitParameters): Promise<Address> {
  const data = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args })
  const receipt = await sendAndWait({ devnet, data, from, gas: 60_000_000n, label: 'deployment' })
  if (!receipt.contractAddress) throw new Error('deployment produced no contract address')
  return receipt.contractAddress
}
