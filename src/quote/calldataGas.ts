import type { Hex } from 'viem'

/**
 * The calldata part of a transaction's intrinsic gas (EIP-2028): 4 per zero byte, 16 per other byte.
 * (EIP-7623's floor of 10/40 per byte only binds for calls that do almost no work; a swap never does.)
 * Counted on the hex string itself (it runs on every quote).
 *
 * @example
 * calldataGas('0x00ff') // 20
 */
export function calldataGas(data: Hex): number {
  if (data.length % 2 !== 0) throw new TypeError(`calldataGas: odd-length hex (${data.length} characters)`)
  const zero = 48 // '0'
  let gas = 0
  for (let i = 2; i < data.length; i += 2) gas += data.charCodeAt(i) === zero && data.charCodeAt(i + 1) === zero ? 4 : 16
  return gas
}
