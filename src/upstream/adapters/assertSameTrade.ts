import { UpstreamError } from '../UpstreamError.ts'

/**
 * An upstream's answer must be about the trade we asked for: the echoed tokens (any letter case)
 * and input amount must be ours. A mismatch (a buggy or hostile upstream quoting another trade) is
 * an `invalid response`, so a number for the wrong trade never reaches a comparison.
 *
 * @example
 * assertSameTrade({ field: 'sellAmount', got: body.sellAmount, want: trade.amountIn })
 * assertSameTrade({ field: 'buyToken', got: body.buyToken, want: trade.tokenOut })
 * // nothing when they match (any letter case); UpstreamError('invalid response', 'buyToken: the answer is for …') otherwise
 */
export function assertSameTrade({ field, got, want }: { field: string; got: unknown; want: string | bigint }): void {
  const same =
    typeof want === 'bigint'
      ? (typeof got === 'string' && /^[0-9]+$/.test(got) && BigInt(got) === want) ||
        (typeof got === 'number' && Number.isSafeInteger(got) && BigInt(got) === want)
      : typeof got === 'string' && got.toLowerCase() === want.toLowerCase()
  if (!same)
    throw new UpstreamError(
      'invalid response',
      `${field}: the answer is for ${JSON.stringify(got)?.slice(0, 50)}, not the ${String(want)} asked for`,
    )
}
