import type { Address, Hex } from 'viem'
import type { UpstreamTrade, UpstreamTransaction } from '../UpstreamAdapter.ts'
import { UpstreamError } from '../UpstreamError.ts'
import { parseUpstreamAmount } from '../parseUpstreamAmount.ts'

const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/**
 * A transaction an upstream built, checked before anyone is told to sign it: `to` and
 * `allowanceTarget` are addresses (no approval target for a native input), `data` is hex, `value` is exactly `amountIn` when the input is
 * the native asset and 0 otherwise (an upstream asking for more ETH than the trade is refused as
 * an `invalid response`), gas is an exact integer.
 *
 * @example
 * const transaction = upstreamTransaction({ trade, to: tx.to, data: tx.data, value: tx.value, gas: tx.gas, allowanceTarget: spender })
 * // → { to, data, value: trade.amountIn for a native input (else 0n), gas, allowanceTarget } checked; UpstreamError('invalid response') otherwise
 */
export function upstreamTransaction({
  trade,
  to,
  data,
  value,
  gas,
  allowanceTarget,
  permit2,
}: {
  trade: UpstreamTrade
  to: string
  data: string
  value: unknown
  gas?: unknown
  allowanceTarget?: string
  permit2?: unknown
}): UpstreamTransaction {
  const address = /^0x[a-fA-F0-9]{40}$/
  if (!address.test(to)) throw new UpstreamError('invalid response', 'transaction.to: not an address')
  if (!/^0x([a-fA-F0-9]{2})+$/.test(data)) throw new UpstreamError('invalid response', 'transaction.data: not hex calldata')
  if (allowanceTarget !== undefined && !address.test(allowanceTarget))
    throw new UpstreamError('invalid response', 'allowance target: not an address')
  const wei = parseUpstreamAmount({ value, field: 'transaction.value' })
  const nativeIn = trade.tokenIn.toLowerCase() === NATIVE
  const expected = nativeIn ? trade.amountIn : 0n
  if (wei !== expected) throw new UpstreamError('invalid response', `transaction.value: ${wei} wei, the trade sends ${expected}`)
  const gasUnits =
    gas === undefined || gas === null
      ? undefined
      : parseUpstreamAmount({ value: gas, field: 'transaction.gas', allowFractionalNumber: true })
  return {
    to: to as Address,
    data: data as Hex,
    value: wei,
    ...(gasUnits !== undefined && gasUnits > 0n ? { gas: gasUnits } : {}),
    // A native input needs no approval, whatever the upstream names.
    ...(allowanceTarget !== undefined && !nativeIn ? { allowanceTarget: allowanceTarget as Address } : {}),
    ...(permit2 !== undefined ? { permit2 } : {}),
  }
}
