import { type CompiledLensContract, compiledLensContract } from '../../artifacts/compiledLensContract.ts'

export type CompiledTickLens = CompiledLensContract

/**
 * The compiled `contracts/lens/TickLens.sol` from `build/lens.json` (compiled first when stale).
 *
 * @example
 * const { deployedBytecode } = compiledTickLens() // → the lens's runtime code ('0x…'), for an eth_call state override
 */
export function compiledTickLens(): CompiledTickLens {
  return compiledLensContract({ name: 'TickLens' })
}
