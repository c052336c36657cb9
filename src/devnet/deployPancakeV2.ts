import { type Address, type Hex, keccak256 } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployPancakeV2Parameters = { devnet: Devnet }
export type DeployPancakeV2ReturnType = {
  /** `PancakeFactory` (feeToSetter = the devnet account, `feeTo` unset). */
  factory: Address
  /** keccak256 of our `PancakePair` creation code: pairs sit at CREATE2(factory, keccak(t0, t1), this). */
  initCodeHash: Hex
}

/**
 * Deploys our PancakeSwap V2 stand-in factory (`contracts/pancake-v2/`). Its `INIT_CODE_PAIR_HASH`
 * is our pair's, not Base's 0x57224589…: checked against the artifact here.
 *
 * @example
 * const { factory, initCodeHash } = await deployPancakeV2({ devnet })
 * // → { factory, initCodeHash: keccak256 of our PancakePair's creation code }
 */
export async function deployPancakeV2({ devnet }: DeployPancakeV2Parameters): Promise<DeployPancakeV2ReturnType> {
  const { PancakeFactory, PancakePair } = loadStandInArtifacts({ protocol: 'pancake-v2' })
  const factory = await deployContractAndWait({ devnet, artifact: PancakeFactory, args: [devnet.account] })
  const initCodeHash = (await devnet.publicClient.readContract({
    address: factory,
    abi: PancakeFactory.abi,
    functionName: 'INIT_CODE_PAIR_HASH',
  })) as Hex
  if (initCodeHash !== keccak256(PancakePair.bytecode))
    throw new Error(`PancakeFactory INIT_CODE_PAIR_HASH ${initCodeHash} is not its pair's code hash`)
  return { factory, initCodeHash }
}
