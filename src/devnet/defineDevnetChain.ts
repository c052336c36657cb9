import { type Chain, defineChain } from 'viem'
import { multicall3Address } from '../chains/multicall3Address.ts'

export type DefineDevnetChainParameters = { url: string; chainId?: number }

/**
 * A viem chain for a local anvil posing as Base (8453), listing our Multicall3 at the canonical
 * address so that viem's `multicall` works unchanged once `installMulticall3` has run.
 *
 * @example
 * const chain = defineDevnetChain({ url: anvil.url })
 * // → a viem Chain: { id: 8453, name: 'Base devnet (anvil)', rpcUrls: [anvil.url], contracts: { multicall3 } }
 */
export function defineDevnetChain({ url, chainId = 8453 }: DefineDevnetChainParameters): Chain {
  return defineChain({
    id: chainId,
    name: 'Base devnet (anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
    contracts: { multicall3: { address: multicall3Address, blockCreated: 0 } },
  })
}
