/**
 * An upstream's own wording (an error description), made safe to put in our answer and logs:
 * printable ASCII only, whitespace collapsed, at most 160 characters. What an upstream writes is
 * never trusted: a hostile body cannot inject control characters or a page of text.
 *
 * @example
 * upstreamText('insufficient liquidity\n') // 'insufficient liquidity'
 * upstreamText(undefined)                  // ''
 */
export function upstreamText(text: unknown): string {
  if (typeof text !== 'string') return ''
  const printable = text
    .replace(/[^\x20-\x7e]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return printable.length > 160 ? `${printable.slice(0, 157)}...` : printable
}
