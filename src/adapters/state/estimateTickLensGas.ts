import { type Address, decodeFunctionData, type Hex } from 'viem'
import { TICK_LENS_ADDRESS } from './scanTickBitmap.ts'
import { tickLensAbi } from './tickLensArtifact.ts'

/** Per bitmap word scanned: a warm CALL to the pool's getter and one cold SLOAD (V3), measured at about 3,000. */
const GAS_PER_WORD = 3_500n
/** The initialized ticks are unknown before the scan: room for 50 (about 10,000 gas each). */
const GAS_FOR_TICKS = 500_000n

/**
 * The gas a tick-lens scan (`scanTickBitmap`'s `eth_call`) is expected to use, from the word range
 * it asks for; undefined for any other call. Used to fill a batch of reads up to its gas cap: a scan
 * that finds more ticks than allowed for only runs out of gas inside its batch and is asked again
 * alone (`createBatchedReadClient`).
 *
 * @example
 * estimateTickLensGas({ target: TICK_LENS_ADDRESS, callData }) // 8_900_000n for 2,400 words
 */
export function estimateTickLensGas({ target, callData }: { target: Address; callData: Hex }): bigint | undefined {
  if (target.toLowerCase() !== TICK_LENS_ADDRESS.toLowerCase()) return undefined
  const { args } = decodeFunctionData({ abi: tickLensAbi, data: callData })
  const [fromWord, toWord] = args.slice(-2) as [number, number]
  return BigInt(toWord - fromWord + 1) * GAS_PER_WORD + GAS_FOR_TICKS
}
