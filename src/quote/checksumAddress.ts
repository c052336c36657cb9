import { type Address, getAddress } from 'viem'

/** Distinct addresses remembered before the memo starts over (a market has far fewer tokens). */
const MAX_ENTRIES = 10_000
const memo = new Map<string, Address>()

/**
 * viem's `getAddress` (EIP-55 checksum; throws on a malformed address), memoized in a plain Map:
 * every plan repeats the same few tokens dozens of times (legs, connectors, candidate paths), and
 * viem's own LRU re-inserts an entry on every hit.
 *
 * @example
 * checksumAddress('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913') // '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
 */
export function checksumAddress(address: string): Address {
  let checksummed = memo.get(address)
  if (checksummed === undefined) {
    checksummed = getAddress(address)
    if (memo.size >= MAX_ENTRIES) memo.clear()
    memo.set(address, checksummed)
  }
  return checksummed
}
