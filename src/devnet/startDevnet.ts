import type { Address, Chain } from 'viem'
import { BASE_BLOCK_TIME_SEC } from '../chains/base.ts'
import { createDevnetClients, type DevnetClients } from './createDevnetClients.ts'
import { defineDevnetChain } from './defineDevnetChain.ts'
import { installMulticall3 } from './installMulticall3.ts'
import { type LoadContractArtifactsReturnType, loadContractArtifacts } from '../artifacts/loadContractArtifacts.ts'
import { setFixedBlockTime } from './setFixedBlockTime.ts'
import { type Anvil, type StartAnvilParameters, startAnvil } from './startAnvil.ts'

/** A running local chain with clients, our compiled contracts, and Multicall3 installed. */
export type Devnet = DevnetClients & {
  anvil: Anvil
  chain: Chain
  /** anvil's first dev account (unlocked; 10000 ETH): the default sender. */
  account: Address
  artifacts: LoadContractArtifactsReturnType
  stop: () => Promise<void>
}

export type StartDevnetParameters = StartAnvilParameters

/**
 * Starts anvil (8453, 1e9 block gas limit), builds viem clients on it, installs Multicall3, and
 * stamps blocks like Base: the first at the wall clock, then each 2 s after its parent.
 *
 * @example
 * const devnet = await startDevnet({})
 * try {
 *   await devnet.publicClient.getChainId() // → 8453
 * } finally {
 *   await devnet.stop()
 * }
 */
export async function startDevnet(parameters: StartDevnetParameters): Promise<Devnet> {
  const artifacts = loadContractArtifacts()
  const anvil = await startAnvil(parameters)
  try {
    const chain = defineDevnetChain({ url: anvil.url, chainId: parameters.chainId })
    const [account] = (await fetchAccounts(anvil.url)) as Address[]
    const clients = createDevnetClients({ chain, url: anvil.url, account })
    await installMulticall3({ testClient: clients.testClient })
    await setFixedBlockTime({ publicClient: clients.publicClient, testClient: clients.testClient, blockTimeSec: BASE_BLOCK_TIME_SEC })
    return { ...clients, anvil, chain, account, artifacts, stop: anvil.stop }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

async function fetchAccounts(url: string): Promise<string[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
  })
  return ((await res.json()) as { result: string[] }).result
}
