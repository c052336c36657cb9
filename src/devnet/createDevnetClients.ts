import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { loopbackFetch } from '../chains/rpc/loopbackFetch.ts'

export type CreateDevnetClientsParameters = {
  chain: Chain
  url: string
  /** Sender of the wallet client; an unlocked anvil account (anvil signs: faster than local signing). */
  account: Address
}

export type DevnetClients = {
  publicClient: PublicClient<Transport, Chain>
  walletClient: WalletClient<Transport, Chain, Account>
  testClient: TestClient<'anvil', Transport, Chain>
}

/**
 * viem public, wallet and test clients over http for a local anvil. The polling interval is short
 * because blocks are mined on demand.
 *
 * @example
 * const { publicClient } = createDevnetClients({ chain, url: anvil.url, account })
 * // → { publicClient, walletClient, testClient } over http, for account
 */
export function createDevnetClients({ chain, url, account }: CreateDevnetClientsParameters): DevnetClients {
  // node:http rather than fetch: about half the CPU per call (loopbackFetch).
  const transport = http(url, { retryCount: 0, timeout: 60_000, fetchFn: loopbackFetch })
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 20, cacheTime: 0 }),
    walletClient: createWalletClient({ chain, transport, account, pollingInterval: 20, cacheTime: 0 }),
    testClient: createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 20, cacheTime: 0 }),
  }
}
