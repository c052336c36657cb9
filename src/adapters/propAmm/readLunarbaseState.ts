import { type Address, parseAbi, type PublicClient } from 'viem'
import type { LunarbaseState } from '../../../bindings/types.ts'

const lunarPoolAbi = parseAbi([
  'function state() view returns (uint160 anchorPrice, uint24 feeAskX24, uint24 feeBidX24, uint48 latestUpdateBlock)',
  'function getXReserve() view returns (uint112)',
  'function getYReserve() view returns (uint112)',
  'function maxPunishmentX24() view returns (uint24)',
  'function blockDelay() view returns (uint48)',
  'function paused() view returns (bool)',
  'function isWhitelisted(address) view returns (bool)',
  'function blacklistFeeMultiplier() view returns (uint256)',
])

/**
 * A LunarBase pool's exact state for the solver's `lunarbase` model (docs/solver-wire-format.md),
 * read through its own views at `blockNumber`: the operator's anchor and directional fees, the
 * maximum punishment, the active reserves, staleness and pause, and the fee multiplier the pool
 * charges `executor` (1 when it whitelists it, else its `blacklistFeeMultiplier`). `block` is the
 * block the trade executes in, which decides freshness as the contract does. Through a batching
 * client these reads share its multicalls.
 *
 * @example
 * const state = await readLunarbaseState({ client, venue, blockNumber, executeAt: blockNumber + 1n, executor: router })
 * // → { model: 'lunarbase', anchorPrice: '4339…', feeAskX24: '5033', …, feeMultiplier: '1', block: '121', paused: false }
 */
export async function readLunarbaseState({
  client,
  venue,
  blockNumber,
  executeAt,
  executor,
}: {
  client: PublicClient
  venue: Address
  blockNumber: bigint
  /** The block a trade priced now executes in first. */
  executeAt: bigint
  executor: Address
}): Promise<LunarbaseState> {
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({
      address: venue,
      abi: lunarPoolAbi,
      functionName: functionName as never,
      args: args as never,
      blockNumber,
    }) as Promise<T>
  const [
    [anchorPrice, feeAskX24, feeBidX24, latestUpdateBlock],
    reserveX,
    reserveY,
    maxPunishmentX24,
    blockDelay,
    paused,
    whitelisted,
    multiplier,
  ] = await Promise.all([
    read<readonly [bigint, number, number, number]>('state'),
    read<bigint>('getXReserve'),
    read<bigint>('getYReserve'),
    read<number>('maxPunishmentX24'),
    read<number>('blockDelay'),
    read<boolean>('paused'),
    read<boolean>('isWhitelisted', [executor]),
    read<bigint>('blacklistFeeMultiplier'),
  ])
  return {
    model: 'lunarbase',
    anchorPrice: anchorPrice.toString(),
    feeAskX24: feeAskX24.toString(),
    feeBidX24: feeBidX24.toString(),
    maxPunishmentX24: maxPunishmentX24.toString(),
    reserveX: reserveX.toString(),
    reserveY: reserveY.toString(),
    feeMultiplier: whitelisted ? '1' : multiplier.toString(),
    latestUpdateBlock: latestUpdateBlock.toString(),
    blockDelay: blockDelay.toString(),
    block: executeAt.toString(),
    paused,
  }
}
