import type { Address, PublicClient } from 'viem'
import type { QuoteRequest, QuoteRoutePlan } from '../quote/quoteTypes.ts'
import type { LaunchpadAddresses } from './indexer/LaunchpadAddresses.ts'

/** A chain the gateway serves: its client, and where its launchpad lives. */
export type GatewayChain = {
  chainId: number
  name: string
  nativeSymbol: string
  wrappedNative: Address
  multicall3: Address
  client: PublicClient
  launchpad: LaunchpadAddresses & { uniswapV3Factory: Address }
  /** The paired assets offered (a subset of the factory's); absent: every one the factory allows. */
  pairedAssets?: Address[]
  /**
   * Swaps on this chain: the swap service's own solver in the same process (its quote service)
   * and the router its plans execute on. Absent: the swap routes answer `unsupported_operation`.
   */
  swaps?: { router: Address; quote: (request: QuoteRequest) => Promise<QuoteRoutePlan> }
}
