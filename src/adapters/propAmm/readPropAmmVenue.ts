import { type Address, getAddress, parseAbi, type PublicClient } from 'viem'
import type { PropAmmDexId } from './propAmmDexIds.ts'

const venueAbi = parseAbi([
  'function base() view returns (address)',
  'function quote() view returns (address)',
  'function X() view returns (address)',
  'function Y() view returns (address)',
  'function paused() view returns (bool)',
  'function lastUpdateBlock() view returns (uint64)',
  'function blockDelay() view returns (uint64)',
  'function state() view returns (uint160 anchorPrice, uint24 feeAskX24, uint24 feeBidX24, uint48 latestUpdateBlock)',
  'function getXReserve() view returns (uint112)',
  'function getYReserve() view returns (uint112)',
  'function router() view returns (address)',
  'function engine() view returns (address)',
  'function tradingEnabled() view returns (bool)',
  'function vault() view returns (address)',
  'function remainingIn(address tokenIn, address tokenOut) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) view returns (uint256)',
])

/** What a prop AMM's own views say about it at one block, before its quotes are sampled. */
export type PropAmmVenueState = {
  /** The venue's two tokens as it names them (base/quote, or LUNARBASE's X/Y). */
  tokens: [Address, Address]
  decimals: [number, number]
  /** Its inventory of each token (LUNARBASE: the active reserves; FELTIR: its maker vault's). */
  reserves: [bigint, bigint]
  /** The contract a trade calls (PropSwap router, Tessera engine, or the venue). */
  entry: Address
  /** FELTIR: the remaining cumulative input per direction ([tokens[0] in, tokens[1] in]). */
  maxIn?: [bigint, bigint]
  /** Why it cannot be traded in the next block: paused, stale by then, trading disabled. */
  closed?: string
}

/**
 * Reads a prop AMM venue's tokens, inventory, entry contract and status through its own views, at
 * `blockNumber` (through a batching client these share its multicalls).
 *
 * @example
 * const state = await readPropAmmVenue({ client, dex: 'FELTIR', venue, blockNumber, nextBlockNumber })
 * // → { tokens, decimals, reserves, entry: venue, maxIn: [..], closed: undefined } or closed: 'stale: ...'
 */
export async function readPropAmmVenue({
  client,
  dex,
  venue,
  blockNumber,
  nextBlockNumber,
}: {
  client: PublicClient
  dex: PropAmmDexId
  venue: Address
  blockNumber: bigint
  /** The block a trade priced now executes in first: the venue must still be fresh there. */
  nextBlockNumber: bigint
}): Promise<PropAmmVenueState> {
  const read = <T>(functionName: string, args: readonly unknown[] = [], address: Address = venue) =>
    client.readContract({ address, abi: venueAbi, functionName: functionName as never, args: args as never, blockNumber }) as Promise<T>
  const lunar = dex === 'LUNARBASE'
  const [token0, token1, paused] = await Promise.all([
    read<Address>(lunar ? 'X' : 'base'),
    read<Address>(lunar ? 'Y' : 'quote'),
    read<boolean>('paused'),
  ])
  const tokens: [Address, Address] = [getAddress(token0), getAddress(token1)]
  const [entry, holder, decimals0, decimals1, updated, delay, enabled] = await Promise.all([
    dex === 'PROPSWAP' ? read<Address>('router') : dex === 'TESSERA' ? read<Address>('engine') : venue,
    dex === 'FELTIR' ? read<Address>('vault') : venue,
    read<number>('decimals', [], tokens[0]),
    read<number>('decimals', [], tokens[1]),
    lunar ? read<readonly [bigint, number, number, number]>('state').then((s) => BigInt(s[3])) : read<bigint>('lastUpdateBlock'),
    read<bigint>('blockDelay'),
    dex === 'TESSERA' ? read<boolean>('tradingEnabled') : true,
  ])
  const [reserve0, reserve1, maxIn0, maxIn1] = await Promise.all([
    lunar ? read<bigint>('getXReserve') : read<bigint>('balanceOf', [holder], tokens[0]),
    lunar ? read<bigint>('getYReserve') : read<bigint>('balanceOf', [holder], tokens[1]),
    dex === 'FELTIR' ? read<bigint>('remainingIn', [tokens[0], tokens[1]]) : undefined,
    dex === 'FELTIR' ? read<bigint>('remainingIn', [tokens[1], tokens[0]]) : undefined,
  ])
  const closed = paused
    ? 'paused'
    : nextBlockNumber >= BigInt(updated) + BigInt(delay)
      ? `stale: the operator's last update was at block ${updated}, fresh for ${delay} blocks, not in block ${nextBlockNumber}`
      : !enabled
        ? 'trading disabled'
        : undefined
  return {
    tokens,
    decimals: [Number(decimals0), Number(decimals1)],
    reserves: [BigInt(reserve0), BigInt(reserve1)],
    entry: getAddress(entry),
    ...(maxIn0 !== undefined && maxIn1 !== undefined ? { maxIn: [maxIn0, maxIn1] as [bigint, bigint] } : {}),
    ...(closed ? { closed } : {}),
  }
}
