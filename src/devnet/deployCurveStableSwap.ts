import type { Address } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployCurveStableSwapParameters = { devnet: Devnet }
export type DeployCurveStableSwapReturnType = {
  /** `CurveStableSwapFactory`: creates pools from Curve's NG bytecode; the devnet account is its admin and fee receiver. */
  factory: Address
  /** `CurveStableSwapViews`: what the pools' `get_dy` calls. */
  views: Address
}

/**
 * Deploys what StableSwap-NG pools need around them on the devnet (`contracts/curve/`): the views
 * contract their `get_dy` asks, and the factory that creates them (`createCurveStableSwapPool`).
 *
 * @example
 * const { factory } = await deployCurveStableSwap({ devnet })
 */
export async function deployCurveStableSwap({ devnet }: DeployCurveStableSwapParameters): Promise<DeployCurveStableSwapReturnType> {
  const { CurveStableSwapFactory, CurveStableSwapViews } = loadStandInArtifacts({ protocol: 'curve' })
  const views = await deployContractAndWait({ devnet, artifact: CurveStableSwapViews })
  const factory = await deployContractAndWait({
    devnet,
    artifact: CurveStableSwapFactory,
    args: [devnet.account, devnet.account, views],
  })
  return { factory, views }
}
