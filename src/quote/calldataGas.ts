import { type Hex, hexToBytes } from 'viem'

/**
 * The calldata part of a transaction's intrinsic gas (EIP-2028): 4 per zero byte, 16 per other byte.
 * (EIP-7623's floor of 10/40 per byte only binds for calls that do almost no work; a swap never does.)
 *
 * @example
 * calldataGas('0x00ff') // 20
 */
export function calldataGas(data: Hex): number {
  let gas = 0
  for (const byte of hexToBytes(data)) gas += byte === 0 ? 4 : 16
  return gas
}
