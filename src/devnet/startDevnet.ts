import type { Address, Chain } from 'viem'
import { createDevnetClients, type DevnetClients } from './createDevnetClients.ts'
import { defineDevnetChain } from './defineDevnetChain.ts'
import { installMulticall3 } from './installMulticall3.ts'
import { type LoadContractArtifactsReturnType, loadContractArtifacts } from './loadContractArtifacts.ts'
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
 * Starts anvil (8453, 1e9 block gas limit), builds viem clients on it and installs Multicall3.
 *
 * @example
 * const devnet = await startDevnet({})
 * try {
 *   await devnet.publicClient.getChainId()
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
