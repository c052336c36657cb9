import { isHex } from 'viem'

/**
 * How many bytes a `0x` hex string holds, or -1 when `value` is not whole bytes of hex: the check
 * before a value goes into a `bytes` or `bytes32` slot (viem would pad an odd digit or throw).
 *
 * @example
 * hexByteLength('0xabcd') // 2
 * hexByteLength('0xabc') // -1
 * hexByteLength('abcd') // -1
 */
export function hexByteLength(value: unknown): number {
  return typeof value === 'string' && isHex(value, { strict: true }) && value.length % 2 === 0 ? (value.length - 2) / 2 : -1
}
