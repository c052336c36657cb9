import type { Address, PublicClient } from 'viem'
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
}
