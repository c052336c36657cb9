import type { Chain, TestClient, Transport } from 'viem'
import { loadContractArtifacts } from '../artifacts/loadContractArtifacts.ts'
import { multicall3Address } from '../chains/multicall3Address.ts'

export type InstallMulticall3Parameters = { testClient: TestClient<'anvil', Transport, Chain> }

/**
 * Puts our aggregate3-compatible `Multicall3` runtime at 0xcA11bde05977b3631167028862bE2a173976CA11.
 *
 * @example
 * await installMulticall3({ testClient })
 * // the chain now has Multicall3 at 0xcA11bde05977b3631167028862bE2a173976CA11 (no block mined)
 */
export async function installMulticall3({ testClient }: InstallMulticall3Parameters): Promise<void> {
  const { Multicall3 } = loadContractArtifacts()
  await testClient.setCode({ address: multicall3Address, bytecode: Multicall3.deployedBytecode })
}
