import type { PublicClient } from 'viem'
import { multicall3Address } from '../chains/multicall3Address.ts'
import type { SeededDevnet } from '../devnet/startSeededDevnet.ts'
import type { GatewayChain } from './GatewayChain.ts'

export type EmbeddedGatewayChainParameters = {
  /** The seeded embedded chain; it must hold the launchpad (`devnet.market.launchpad`). */
  devnet: SeededDevnet
  /** The swap service's router and quotes, for the swap routes; absent: those routes answer unavailable. */
  swaps?: GatewayChain['swaps']
}

/**
 * The embedded chain as the gateway serves it: its launchpad, followed from the launchpad's first
 * block (`fromBlock`, what `startGateway` follows from), Multicall3 at the canonical address. One description for `npm start`, the tests'
 * testbed and the prepare bench.
 *
 * @example
 * const gateway = await startGateway({ db, chains: [embeddedGatewayChain({ devnet, swaps })] })
 * // embeddedGatewayChain(…) → { chainId, name: 'Base (embedded devnet)', launchpad, multicall3, client, fromBlock, … }
 */
export function embeddedGatewayChain({ devnet, swaps }: EmbeddedGatewayChainParameters): GatewayChain & { fromBlock: bigint } {
  const lp = devnet.market.launchpad
  if (!lp) throw new Error('the embedded chain has no launchpad (reseed it: npm run devnet:reseed)')
  const chainId = devnet.market.chainId
  return {
    chainId,
    name: 'Base (embedded devnet)',
    nativeSymbol: 'ETH',
    wrappedNative: lp.weth,
    multicall3: multicall3Address,
    client: devnet.publicClient as unknown as PublicClient,
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
