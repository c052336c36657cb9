import { UpstreamError } from './UpstreamError.ts'

const UINT256_MAX = 2n ** 256n - 1n

/**
 * An amount as an upstream wrote it, as an exact integer: a decimal string (`"1666243758"`), or a
 * JSON number that is a safe integer (OpenOcean's `estimatedGas` on /swap, Odos' gas figures, 1inch's
 * `gas`). Anything else (a float, an exponent, a negative, more than a uint256 holds, a number past
 * 2^53 whose digits JSON already lost) is an `invalid response` naming `field`, never a guess.
 *
 * @example
 * parseUpstreamAmount({ value: '1666243758', field: 'amountOut' }) // 1666243758n
 * parseUpstreamAmount({ value: 129211, field: 'estimatedGas' })    // 129211n
 * parseUpstreamAmount({ value: '1e18', field: 'buyAmount' })       // throws UpstreamError('invalid response')
 */
export function parseUpstreamAmount({
  value,
  field,
  allowFractionalNumber = false,
}: {
  value: unknown
  field: string
  allowFractionalNumber?: boolean
}): bigint {
  if (typeof value === 'number') {
    // Odos reports its naive gas estimate as a float (e.g. 187465.2): gas units, rounded up.
    if (allowFractionalNumber && Number.isFinite(value) && value >= 0 && value <= Number.MAX_SAFE_INTEGER) return BigInt(Math.ceil(value))
    if (Number.isSafeInteger(value) && value >= 0) return BigInt(value)
    throw new UpstreamError('invalid response', `${field}: ${String(value).slice(0, 40)} is not an exact non-negative integer`)
  }
  if (typeof value !== 'string' || !/^[0-9]{1,78}$/.test(value)) {
    throw new UpstreamError('invalid response', `${field}: ${JSON.stringify(value)?.slice(0, 40) ?? 'missing'} is not a decimal integer`)
  }
  const amount = BigInt(value)
  if (amount > UINT256_MAX) throw new UpstreamError('invalid response', `${field}: more than a uint256 holds`)
  return amount
}
