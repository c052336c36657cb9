import { type Address, decodeFunctionResult, encodeFunctionData, type PublicClient, parseAbi } from 'viem'
import type { PoolInput } from '../../../bindings/types.ts'
import { PoolUnusableError } from '../errors.ts'
import type { NextBlock } from '../PoolAdapter.ts'
import { readUniswapV3Pool } from './readUniswapV3Pool.ts'

const feeAbi = parseAbi(['function fee() view returns (uint24)'])

export type ReadSlipstreamPoolParameters = {
  client: PublicClient
  pool: Address
  /** Every call is pinned to this block. */
  blockNumber: bigint
  /** The block a quote executes in first: `fee()` is read for it (see `readSlipstreamFee`). */
  nextBlock: NextBlock
}

/**
 * Reads a Slipstream (Aerodrome CL) pool at one block into the solver's `concentrated` input: the
 * V3 reader with the 6-field `slot0` (ticks through the lens: the same `tickBitmap`/`ticks`
 * getters), then `fee()` as the next block will charge it.
 *
 * @example
 * const input = await readSlipstreamPool({ client, pool, blockNumber, nextBlock })
 */
export async function readSlipstreamPool({ client, pool, blockNumber, nextBlock }: ReadSlipstreamPoolParameters): Promise<PoolInput> {
  const [input, feePips] = await Promise.all([
    readUniswapV3Pool({ client, pool, dex: 'AERODROME_CL', blockNumber }),
    readSlipstreamFee({ client, pool, blockNumber, nextBlock }),
  ])
  if (input.state.model !== 'concentrated') throw new Error(`AERODROME_CL pool ${pool}: not a concentrated state`)
  return { ...input, state: { ...input.state, feePips } }
}

/**
 * The fee a swap in `nextBlock` pays: `fee()` asks the factory's swap-fee module, whose dynamic fee
 * follows the oracle's time-weighted tick, i.e. the clock. So it is an `eth_call` on the state at
 * `blockNumber` with the next block's number and timestamp (a block override): with no event since,
 * the state is the same then, and the module's answer is the fee the swap will read.
 *
 * @example
 * const feePips = await readSlipstreamFee({ client, pool, blockNumber, nextBlock: { number: blockNumber + 1n, timestamp } })
 */
export async function readSlipstreamFee({ client, pool, blockNumber, nextBlock }: ReadSlipstreamPoolParameters): Promise<number> {
  const { data } = await client.call({
    to: pool,
    data: encodeFunctionData({ abi: feeAbi, functionName: 'fee' }),
    blockNumber,
    blockOverrides: { number: nextBlock.number, time: nextBlock.timestamp },
  })
  if (!data) throw new PoolUnusableError({ poolId: pool.toLowerCase(), dex: 'AERODROME_CL', reason: 'fee() returned nothing' })
  return decodeFunctionResult({ abi: feeAbi, functionName: 'fee', data })
}
