import type { UpstreamQuote } from '../http/schemas/upstream.ts'
import type { UpstreamTransaction } from './UpstreamAdapter.ts'

/**
 * A checked upstream transaction as the wire carries it (amounts as decimal strings).
 *
 * @example
 * transactionWire({ to, data, value: 0n, gas: 288079n }) // { to, data, value: '0', gas: '288079' }
 */
export function transactionWire(tx: UpstreamTransaction): NonNullable<UpstreamQuote['transaction']> {
  return {
    to: tx.to,
    data: tx.data,
    value: tx.value.toString(),
    ...(tx.gas !== undefined ? { gas: tx.gas.toString() } : {}),
    ...(tx.allowanceTarget ? { allowanceTarget: tx.allowanceTarget } : {}),
    ...(tx.permit2 !== undefined ? { permit2: tx.permit2 } : {}),
  }
}
