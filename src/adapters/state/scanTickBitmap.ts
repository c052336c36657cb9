import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, numberToHex, type PublicClient } from 'viem'
import { bitmapWordRange } from './bitmapWordRange.ts'
import { tickLensAbi, tickLensRuntimeCode } from './tickLensArtifact.ts'

/**
 * Where the lens's code is put by the state override. No contract lives there on any chain we
 * serve; the override replaces whatever code would, for this call only.
 */
export const TICK_LENS_ADDRESS: Address = '0x00000000000000000000000000000000715C1e25'

/**
 * Bitmap words one call scans. A V3 word costs about 3,000 gas in the lens (a warm CALL, the
 * pool's getter, one cold SLOAD), a V4 word less (one extsload slot), and each initialized tick
 * about 10,000 (V3 `ticks()` reads four slots). 2,400 V3 words measure 7.3M gas
 * (`scanTickBitmap.test.ts`), well below anvil's 30M and Base nodes' eth_call caps; a whole
 * spacing-1 range (6,933 words, 21M) in one call would be too close, so it takes three calls, sent
 * together and pinned to one block.
 */
export const WORDS_PER_CALL = 2_400

export type ScanTickBitmapParameters = {
  client: PublicClient
  /**
   * `v3`: a pool with `tickBitmap(int16)` / `ticks(int24)` (Uniswap V3 and its forks, Slipstream);
   * `v4`: a PoolManager and the pool's `Pool.State` slot; `infinityCl`: PancakeSwap Infinity's CL
   * pool manager and the pool id (`getPoolBitmapInfo` / `getPoolTickInfo`).
   */
  source:
    | { kind: 'v3'; pool: Address }
    | { kind: 'v4'; poolManager: Address; stateSlot: bigint }
    | { kind: 'infinityCl'; poolManager: Address; poolId: Hex }
  tickSpacing: number
  /** Every chunk is read at this block. */
  blockNumber: bigint
}

export type ScanTickBitmapReturnType = {
  /** Non-empty bitmap words by word position. */
  words: Map<number, bigint>
  /** Initialized ticks ascending, with their liquidityNet. */
  ticks: [tick: number, liquidityNet: bigint][]
}

/**
 * Scans a pool's whole tick bitmap with `contracts/lens/TickLens.sol`, run by `eth_call` with a
 * state override (never deployed): each call walks up to `WORDS_PER_CALL` words inside the EVM and
 * returns only the set words and the initialized ticks' liquidityNet.
 *
 * @example
 * const { ticks } = await scanTickBitmap({ client, source: { kind: 'v3', pool }, tickSpacing: 60, blockNumber })
 * // → ticks: [[tick, liquidityNet], …] of every initialized tick, ascending (words: the set bitmap words)
 */
export async function scanTickBitmap({
  client,
  source,
  tickSpacing,
  blockNumber,
}: ScanTickBitmapParameters): Promise<ScanTickBitmapReturnType> {
  const { minWord, maxWord } = bitmapWordRange({ tickSpacing })
  const chunks: [number, number][] = []
  for (let from = minWord; from <= maxWord; from += WORDS_PER_CALL) chunks.push([from, Math.min(maxWord, from + WORDS_PER_CALL - 1)])
  const lensCall = async (data: Hex): Promise<Hex> => {
    const { data: returned } = await client.call({
      to: TICK_LENS_ADDRESS,
      data,
      blockNumber,
      stateOverride: [{ address: TICK_LENS_ADDRESS, code: tickLensRuntimeCode }],
    })
    if (!returned) throw new Error(`tick lens returned nothing at block ${blockNumber}`)
    return returned
  }
  const results = await Promise.all(
    chunks.map(async ([fromWord, toWord]) => {
      if (source.kind === 'v3') {
        const data = encodeFunctionData({ abi: tickLensAbi, functionName: 'scanV3', args: [source.pool, tickSpacing, fromWord, toWord] })
        return decodeFunctionResult({ abi: tickLensAbi, functionName: 'scanV3', data: await lensCall(data) })
      }
      if (source.kind === 'infinityCl') {
        const data = encodeFunctionData({
          abi: tickLensAbi,
          functionName: 'scanInfinityCl',
          args: [source.poolManager, source.poolId, tickSpacing, fromWord, toWord],
        })
        return decodeFunctionResult({ abi: tickLensAbi, functionName: 'scanInfinityCl', data: await lensCall(data) })
      }
      const data = encodeFunctionData({
        abi: tickLensAbi,
        functionName: 'scanV4',
        args: [source.poolManager, numberToHex(source.stateSlot, { size: 32 }), tickSpacing, fromWord, toWord],
      })
      return decodeFunctionResult({ abi: tickLensAbi, functionName: 'scanV4', data: await lensCall(data) })
    }),
  )
  const words = new Map<number, bigint>()
  const ticks: [number, bigint][] = []
  for (const [positions, values, chunkTicks, nets] of results) {
    positions.forEach((p, i) => words.set(p, values[i]))
    chunkTicks.forEach((t, i) => ticks.push([t, nets[i]]))
  }
  return { words, ticks }
}
