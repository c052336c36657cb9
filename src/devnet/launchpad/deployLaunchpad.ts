import { type Address, getAddress } from 'viem'
import { deployContractAndWait } from '../deployContractAndWait.ts'
import type { Devnet } from '../startDevnet.ts'
import { launchFactoryAbi } from '../../gateway/launchpad/launchFactoryAbi.ts'
import { loadLaunchpadArtifacts } from '../../gateway/launchpad/loadLaunchpadArtifacts.ts'

export type DeployLaunchpadParameters = {
  devnet: Devnet
  /** The Uniswap V3 factory launched pools are created on. */
  uniswapV3Factory: Address
  /** Wrapped native asset: the default paired asset and what dev buys pay in. */
  weth: Address
  /** May allow paired assets; default the devnet's first account. */
  owner?: Address
}

/** Where the launchpad lives on a chain, and from which block the indexer reads it. */
export type LaunchpadDeployment = {
  factory: Address
  feeLocker: Address
  vestingVault: Address
  uniswapV3Factory: Address
  weth: Address
  /** The factory's deployment block: nothing of the launchpad is older. */
  fromBlock: bigint
}

/**
 * Deploys `LaunchFactory` (which deploys its `FeeLocker` and `VestingVault`) and reads their addresses.
 *
 * @example
 * const launchpad = await deployLaunchpad({ devnet, uniswapV3Factory, weth })
 * // → { factory, feeLocker, vestingVault, uniswapV3Factory, weth, fromBlock: the factory's deployment block }
 */
export async function deployLaunchpad({
  devnet,
  uniswapV3Factory,
  weth,
  owner = devnet.account,
}: DeployLaunchpadParameters): Promise<LaunchpadDeployment> {
  const { LaunchFactory } = loadLaunchpadArtifacts()
  const factory = getAddress(await deployContractAndWait({ devnet, artifact: LaunchFactory, args: [uniswapV3Factory, weth, owner] }))
  const read = (functionName: 'feeLocker' | 'vestingVault') =>
    devnet.publicClient.readContract({ address: factory, abi: launchFactoryAbi, functionName })
  const [feeLocker, vestingVault, fromBlock] = await Promise.all([
    read('feeLocker'),
    read('vestingVault'),
    devnet.publicClient.getBlockNumber({ cacheTime: 0 }),
  ])
  return {
    factory,
    feeLocker: getAddress(feeLocker),
    vestingVault: getAddress(vestingVault),
    uniswapV3Factory: getAddress(uniswapV3Factory),
    weth: getAddress(weth),
    fromBlock,
  }
}
