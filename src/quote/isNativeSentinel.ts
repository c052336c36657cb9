import type { Address } from 'viem'

/** The spec's native-asset sentinels: 0xEeee…EEeE and the zero address (any case). */
const sentinels = new Set(['0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', '0x0000000000000000000000000000000000000000'])

/**
 * Whether `token` names the chain's native asset rather than an ERC-20.
 *
 * @example
 * isNativeSentinel('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE') // true
 * isNativeSentinel('0x4200000000000000000000000000000000000006') // false (WETH is a token)
 */
export function isNativeSentinel(token: Address): boolean {
  return sentinels.has(token.toLowerCase())
}
