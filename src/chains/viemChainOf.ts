import { type Chain, defineChain } from 'viem'
import type { ChainConfig } from './ChainConfig.ts'

/**
 * The viem `Chain` of a chain config: its id, and its Multicall3 (viem's `multicall` needs the
 * address; the deployless fallback hits the contract-size limit on large batches).
 *
 * @example
 * const client = createPublicClient({ chain: viemChainOf(base), transport })
 * // viemChainOf(base) → { id: 8453, name: 'base', contracts: { multicall3: { address: '0xcA11…CA11' } }, … }
 */
export function viemChainOf(chain: Pick<ChainConfig, 'chainId' | 'name' | 'multicall3'>): Chain {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [] } },
    contracts: { multicall3: { address: chain.multicall3 } },
  })
}
