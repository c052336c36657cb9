import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadNpmArtifact } from './loadNpmArtifact.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployUniswapV4Parameters = { devnet: Devnet }
export type DeployUniswapV4ReturnType = {
  poolManager: Address
  /** `PoolSwapTest`: pays from and pays out to its caller (approve it for both tokens). */
  swapRouter: Address
  /** `PoolModifyLiquidityTest`: pays from its caller (approve it for both tokens). */
  liquidityRouter: Address
}

/**
 * Deploys the published V4 `PoolManager` (owner = the devnet account) and its test routers.
 *
 * @example
 * const { poolManager, swapRouter, liquidityRouter } = await deployUniswapV4({ devnet })
 * // → the PoolManager's and its test routers' addresses
 */
export async function deployUniswapV4({ devnet }: DeployUniswapV4Parameters): Promise<DeployUniswapV4ReturnType> {
  const poolManager = await deployContractAndWait({
    devnet,
    artifact: loadNpmArtifact({ name: 'PoolManager' }),
    args: [devnet.account],
  })
  const swapRouter = await deployContractAndWait({ devnet, artifact: loadNpmArtifact({ name: 'PoolSwapTest' }), args: [poolManager] })
  const liquidityRouter = await deployContractAndWait({
    devnet,
    artifact: loadNpmArtifact({ name: 'PoolModifyLiquidityTest' }),
    args: [poolManager],
  })
  return { poolManager, swapRouter, liquidityRouter }
}
