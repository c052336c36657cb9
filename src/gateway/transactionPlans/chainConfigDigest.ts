import { createHash } from 'node:crypto'
import { canonicalJson } from '../../http/quotes/canonicalJson.ts'
import type { GatewayChain } from '../GatewayChain.ts'

/**
 * A digest of what a chain's transaction plans are built against: its id and the addresses the
 * plans call (launchpad, router, wrapped native, Multicall3) and the configured paired assets. A plan records it; when the chain's
 * configuration changes (a redeployed factory, another router), older plans are stale
 * (`stale_plan`, spec §3) even before they expire.
 *
 * @example
 * chainConfigDigest(chain) // '9f2c…'
 */
export function chainConfigDigest(chain: GatewayChain): string {
  const { chainId, wrappedNative, multicall3, launchpad, swaps, pairedAssets } = chain
  return createHash('sha256')
    .update(
      canonicalJson({
        chainId,
        wrappedNative,
        multicall3,
        launchpad: { ...launchpad, fromBlock: launchpad.fromBlock.toString() },
        router: swaps?.router ?? null,
        // Configured paired assets (GATEWAY_CHAIN_CONFIG) only when set: the embedded chains' digests stay as they were.
        ...(pairedAssets ? { pairedAssets } : {}),
      }),
    )
    .digest('hex')
    .slice(0, 32)
}
