import { RouterEncodingError } from './RouterEncodingError.ts'

const UINT256_MAX = 2n ** 256n - 1n

export type ParseUint256Parameters = {
  /** A decimal string (the spec's AmountString) or a bigint. */
  value: unknown
  /** Field path for the error, e.g. `permit.value`. */
  path: string
}

/**
 * `value` as a uint256, checked before viem's ABI encoder sees it (which would throw a generic
 * error, a 500): a decimal string of digits or a bigint, in 0..2^256-1. Anything else throws
 * `RouterEncodingError` naming `path`.
 *
 * @example
 * parseUint256({ value: '1000', path: 'amountIn' }) // 1000n
 * parseUint256({ value: (2n ** 256n).toString(), path: 'permit.value' }) // throws: permit.value: above 2^256 - 1
 */
export function parseUint256({ value, path }: ParseUint256Parameters): bigint {
  let parsed: bigint
  if (typeof value === 'bigint') parsed = value
  else if (typeof value === 'string' && /^[0-9]+$/.test(value)) parsed = BigInt(value)
  else throw new RouterEncodingError({ path, message: `not an amount: ${String(value).slice(0, 100)}` })
  if (parsed < 0n) throw new RouterEncodingError({ path, message: `negative: ${parsed}` })
  if (parsed > UINT256_MAX) throw new RouterEncodingError({ path, message: 'above 2^256 - 1 (uint256)' })
  return parsed
}
