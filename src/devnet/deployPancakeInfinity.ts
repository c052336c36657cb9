import type { Address } from 'viem'
import { loadContractArtifacts } from '../artifacts/loadContractArtifacts.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployPancakeInfinityParameters = { devnet: Devnet }
export type DeployPancakeInfinityReturnType = {
  /** The `Vault`: holds the tokens, runs `lock`/`settle`/`take`. */
  vault: Address
  /** The `CLPoolManager`, registered with the vault. */
  clPoolManager: Address
  /** `ProtocolFeeController` (owned by the devnet account): new pools' protocol fee, and later changes. */
  protocolFeeController: Address
  /** `InfinityTestRouter`: adds liquidity and swaps through the vault's lock (seed and tests). */
  testRouter: Address
}

/**
 * Deploys our PancakeSwap Infinity CL stand-ins (`contracts/pancake-infinity/`; the test router is a test double in `contracts/test/`): the vault, the CL
 * pool manager registered as its app, its protocol-fee controller (owned by the devnet account), and
 * a test router.
 *
 * @example
 * const { vault, clPoolManager } = await deployPancakeInfinity({ devnet })
 * // → { vault, clPoolManager (the vault's registered app), protocolFeeController, testRouter }
 */
export async function deployPancakeInfinity({ devnet }: DeployPancakeInfinityParameters): Promise<DeployPancakeInfinityReturnType> {
  const { Vault, CLPoolManager, ProtocolFeeController } = loadStandInArtifacts({ protocol: 'pancake-infinity' })
  const { InfinityTestRouter } = loadContractArtifacts()
  const vault = await deployContractAndWait({ devnet, artifact: Vault })
  const clPoolManager = await deployContractAndWait({ devnet, artifact: CLPoolManager, args: [vault] })
  await writeContractAndWait({ devnet, address: vault, abi: Vault.abi, functionName: 'registerApp', args: [clPoolManager] })
  const protocolFeeController = await deployContractAndWait({ devnet, artifact: ProtocolFeeController, args: [clPoolManager] })
  await writeContractAndWait({
    devnet,
    address: clPoolManager,
    abi: CLPoolManager.abi,
    functionName: 'setProtocolFeeController',
    args: [protocolFeeController],
  })
  const testRouter = await deployContractAndWait({ devnet, artifact: InfinityTestRouter, args: [vault, clPoolManager] })
  return { vault, clPoolManager, protocolFeeController, testRouter }
}
