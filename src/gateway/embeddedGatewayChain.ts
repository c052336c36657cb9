import type { PublicClient } from 'viem'
import { multicall3Address } from '../chains/multicall3Address.ts'
import type { LaunchpadDescription } from '../devnet/launchpad/LaunchpadDescription.ts'
import type { GatewayChain } from './GatewayChain.ts'

/** The embedded chains' names and native assets, by id (the spec's chains: research/gateway-standards.md). */
export const EMBEDDED_CHAINS: Record<number, { name: string; nativeSymbol: string }> = {
  8453: { name: 'Base (embedded devnet)', nativeSymbol: 'ETH' },
  4663: { name: 'Robinhood Chain (embedded devnet)', nativeSymbol: 'ETH' },
  143: { name: 'Monad (embedded devnet)', nativeSymbol: 'MON' },
}

export type EmbeddedGatewayChainParameters = {
  /** An embedded chain (the seeded devnet, or a launchpad chain); it must hold the launchpad. */
  devnet: { publicClient: unknown; market: { chainId: number; launchpad?: LaunchpadDescription } }
  /** The swap service's router and quotes, for the swap routes; absent: those routes answer unavailable. */
  swaps?: GatewayChain['swaps']
}

/**
 * An embedded chain as the gateway serves it: its launchpad, followed from the launchpad's first
 * block (`fromBlock`, what `startGateway` follows from), Multicall3 at the canonical address. One
 * description for `npm start`, the tests' testbed and the prepare bench.
 *
 * @example
 * const gateway = await startGateway({ db, chains: [embeddedGatewayChain({ devnet, swaps })] })
 * // embeddedGatewayChain(…) → { chainId, name: 'Base (embedded devnet)', launchpad, multicall3, client, fromBlock, … }
 */
export function embeddedGatewayChain({ devnet, swaps }: EmbeddedGatewayChainParameters): GatewayChain & { fromBlock: bigint } {
  const lp = devnet.market.launchpad
  if (!lp) throw new Error('the embedded chain has no launchpad (reseed it: npm run devnet:reseed)')
  const chainId = devnet.market.chainId
  const known = EMBEDDED_CHAINS[chainId] ?? { name: `Chain ${chainId} (embedded devnet)`, nativeSymbol: 'ETH' }
  return {
    chainId,
    ...known,
    wrappedNative: lp.weth,
    multicall3: multicall3Address,
    client: devnet.publicClient as PublicClient,
    launchpad: {
      chainId,
      factory: lp.factory,
      feeLocker: lp.feeLocker,
      vestingVault: lp.vestingVault,
      fromBlock: BigInt(lp.fromBlock),
      uniswapV3Factory: lp.uniswapV3Factory,
    },
    fromBlock: BigInt(lp.fromBlock),
    swaps,
  }
}
