import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeploySlipstreamParameters = {
  devnet: Devnet
  /**
   * The dynamic fee module's defaults: K (fee pips per tick of distance from the TWAP, ×1e6) and
   * the cap in pips; omit `swapFeeModule` for a factory without a module (each spacing's fee).
   */
  swapFeeModule?: { defaultScalingFactor: bigint; defaultFeeCap: number; secondsAgo: number }
}

export type DeploySlipstreamReturnType = {
  /** `CLFactory`: spacings 1, 50, 100, 200, 2000; the devnet account owns it and manages swap fees. */
  factory: Address
  /** The `CLPool` implementation every pool is an EIP-1167 clone of. */
  implementation: Address
  /** The `DynamicSwapFeeModule` the factory asks for every fee, when deployed. */
  swapFeeModule?: Address
}

/**
 * Deploys our Slipstream stand-ins (`contracts/slipstream/`): the pool implementation, the factory
 * that clones it and, when asked, a dynamic swap-fee module wired into the factory.
 *
 * @example
 * const { factory, swapFeeModule } = await deploySlipstream({ devnet, swapFeeModule: { defaultScalingFactor: 10_000n, defaultFeeCap: 20_000, secondsAgo: 20 } })
 * // → { factory, implementation, swapFeeModule }: the module set as the factory's swap-fee module
 */
export async function deploySlipstream({ devnet, swapFeeModule }: DeploySlipstreamParameters): Promise<DeploySlipstreamReturnType> {
  const { CLPool, CLFactory, DynamicSwapFeeModule } = loadStandInArtifacts({ protocol: 'slipstream' })
  const implementation = await deployContractAndWait({ devnet, artifact: CLPool })
  const factory = await deployContractAndWait({ devnet, artifact: CLFactory, args: [implementation] })
  if (!swapFeeModule) return { factory, implementation }
  const module = await deployContractAndWait({
    devnet,
    artifact: DynamicSwapFeeModule,
    args: [factory, swapFeeModule.defaultScalingFactor, BigInt(swapFeeModule.defaultFeeCap)],
  })
  await writeContractAndWait({
    devnet,
    address: module,
    abi: DynamicSwapFeeModule.abi,
    functionName: 'setSecondsAgo',
    args: [swapFeeModule.secondsAgo],
  })
  await writeContractAndWait({ devnet, address: factory, abi: CLFactory.abi, functionName: 'setSwapFeeModule', args: [module] })
  return { factory, implementation, swapFeeModule: module }
}
