import type { Address } from 'viem'
import { UNISWAP_V2_PAIR_INIT_CODE_HASH, UNISWAP_V3_POOL_INIT_CODE_HASH } from '../../chains/poolInitCodeHashes.ts'
import { deployRouter } from '../deployRouter.ts'
import type { Devnet } from '../startDevnet.ts'
import type { SeededFactories } from './DevnetDescription.ts'

export type DeploySeedRouterParameters = {
  devnet: Devnet
  weth: Address
  /** The seed's deployments: the V4 PoolManager, the Infinity Vault and CL pool manager, and the V2/V3 factories of the legacy path legs. */
  factories: SeededFactories
}

/**
 * Deploys our swap router (`contracts/router/SwapRouter.sol`) on the seeded market, wired to the
 * seed's WETH, the Uniswap V4 PoolManager, PancakeSwap Infinity's Vault and CL pool manager, and
 * the Uniswap V2/V3 factories (npm bytecode, so the
 * canonical init-code hashes) for the legacy `univ2`/`univ3` path legs. The seed's state key covers
 * this file and the router sources, so a changed router re-seeds on the next start.
 *
 * @example
 * const router = await deploySeedRouter({ devnet, weth, factories })
 * // → the router's address, taking legs through every seeded V2, V3, V4 and Infinity deployment
 */
export async function deploySeedRouter({ devnet, weth, factories }: DeploySeedRouterParameters): Promise<Address> {
  return deployRouter({
    devnet,
    weth,
    poolManager: factories.UNIV4.poolManager,
    v2Factory: factories.UNIV2.factory,
    v2PairInitCodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
    v3Factory: factories.UNIV3.factory,
    v3PoolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
    infinityVault: factories.PANCAKE_INFINITY_CL.vault,
    infinityClPoolManager: factories.PANCAKE_INFINITY_CL.poolManager,
  })
}
