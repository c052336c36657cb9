import type { UpstreamQuote } from '../http/schemas/upstream.ts'
import type { GasCostInTokenOut } from './createGasCostPricer.ts'
import type { UpstreamAnswer } from './UpstreamAdapter.ts'
import { transactionWire } from './transactionWire.ts'

/**
 * An upstream's answer as the spec's UpstreamQuote: amounts as decimal strings, `netOutput` its
 * output minus its gas and its transaction's L1 data fee (`l1FeeWei`) in tokenOut (at least 0), and
 * its transaction when it built one.
 *
 * @example
 * upstreamQuoteWire({ sourceId: '0x', answer: { outputAmount: 1000n, gasUnits: 200_000n }, gasCost })
 * // { sourceId: '0x', outputAmount: '1000', netOutput: '…', gasEstimate: '200000' }
 */
export function upstreamQuoteWire({
  sourceId,
  answer,
  gasCost,
  l1FeeWei = 0n,
}: {
  sourceId: string
  answer: UpstreamAnswer
  gasCost: GasCostInTokenOut
  l1FeeWei?: bigint
}): UpstreamQuote {
  const net = answer.outputAmount - gasCost.costOf(answer.gasUnits, l1FeeWei)
  return {
    sourceId,
    outputAmount: answer.outputAmount.toString(),
    netOutput: (net > 0n ? net : 0n).toString(),
    gasEstimate: answer.gasUnits.toString(),
    ...(answer.transaction ? { transaction: transactionWire(answer.transaction) } : {}),
  }
}
