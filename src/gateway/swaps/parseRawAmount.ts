import { GatewayProblem } from '../problems/GatewayProblem.ts'

const MAX_UINT256 = 2n ** 256n - 1n

/**
 * A body amount (decimal digits, the schema checked) as a bigint the chain can carry: 0 or 2^256
 * and above are `invalid_amount` (422: the value is well formed, but no operation takes it).
 *
 * @example
 * parseRawAmount({ value: '1000000', field: 'amount_in' }) // 1000000n
 */
export function parseRawAmount({ value, field }: { value: string; field: string }): bigint {
  const amount = BigInt(value)
  if (amount === 0n || amount > MAX_UINT256) {
    throw new GatewayProblem('invalid_amount', {
      detail: `${field} must be more than 0 and below 2^256.`,
      invalidParameters: [{ name: field, in: 'body', reason: 'more than 0 and below 2^256' }],
    })
  }
  return amount
}
