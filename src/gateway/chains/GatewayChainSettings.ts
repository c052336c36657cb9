import type { Address } from 'viem'

/** One configured chain as `loadGatewayChainConfig` returns it: checked, checksummed, block as bigint. */
export type GatewayChainSettings = {
  chainId: number
  name: string
  nativeSymbol: string
  /** Absent: the swap service's node (the swap service's chain only). */
  rpcUrls?: string[]
  multicall3: Address
  launchpad: { factory: Address; feeLocker: Address; vestingVault: Address; startBlock: bigint }
  /** Absent: every paired asset the factory allows. */
  pairedAssets?: Address[]
  swapRouter?: Address
}
