import { type Address, type Hex, zeroAddress, zeroHash } from 'viem'
import { UNISWAP_V2_PAIR_INIT_CODE_HASH, UNISWAP_V3_POOL_INIT_CODE_HASH } from '../chains/poolInitCodeHashes.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import type { Devnet } from './startDevnet.ts'
import { loadRouterArtifact } from '../router/loadRouterArtifact.ts'

export type DeployRouterParameters = {
  devnet: Devnet
  /** Wrapped native token (WETH9). */
  weth: Address
  /** V4 PoolManager; absent: `univ4` legs revert `PoolManagerNotSet`. */
  poolManager?: Address
  /** Factory of the legacy `univ2` path kind; absent: those legs revert `LegacyFactoryNotSet`. */
  v2Factory?: Address
  v2PairInitCodeHash?: Hex
  /** Factory of the legacy `univ3` path kind; absent: those legs revert `LegacyFactoryNotSet`. */
  v3Factory?: Address
  v3PoolInitCodeHash?: Hex
  /** PancakeSwap Infinity's Vault and CL pool manager; absent: `pancake_infinity_cl` legs revert `InfinityNotSet`. */
  infinityVault?: Address
  infinityClPoolManager?: Address
}

/**
 * Deploys `SwapRouter` on the devnet (compiling `contracts/router/` first if needed).
 *
 * @example
 * const router = await deployRouter({ devnet, weth, poolManager, v2Factory, v3Factory, infinityVault, infinityClPoolManager })
 * // → the SwapRouter's address, wired to those factories and managers (zero address: a leg kind it cannot take)
 */
export async function deployRouter({
  devnet,
  weth,
  poolManager = zeroAddress,
  v2Factory = zeroAddress,
  v2PairInitCodeHash = v2Factory === zeroAddress ? zeroHash : UNISWAP_V2_PAIR_INIT_CODE_HASH,
  v3Factory = zeroAddress,
  v3PoolInitCodeHash = v3Factory === zeroAddress ? zeroHash : UNISWAP_V3_POOL_INIT_CODE_HASH,
  infinityVault = zeroAddress,
  infinityClPoolManager = zeroAddress,
}: DeployRouterParameters): Promise<Address> {
  return deployContractAndWait({
    devnet,
    artifact: loadRouterArtifact(),
    args: [weth, poolManager, v2Factory, v2PairInitCodeHash, v3Factory, v3PoolInitCodeHash, infinityVault, infinityClPoolManager],
  })
}
