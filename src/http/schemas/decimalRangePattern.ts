export type DecimalRangePatternParameters = {
  /** The smallest integer matched: 0 or 1 (a range that starts higher has no use here). */
  min: 0n | 1n
  /** The largest integer matched, e.g. 2^256 - 1. */
  max: bigint
}

/**
 * A regular expression that matches exactly the decimal strings of the integers in `min..max`,
 * leading zeros allowed (the spec's AmountString is `^[0-9]+$`, so `"007"` is 7). JSON Schema has
 * no bound for a number written as a string; this pattern is how the OpenAPI document states one
 * (e.g. `amountIn` in 1..2^256-1) so that a schema-driven client or fuzzer knows the exact range.
 * The syntax is the common subset of ECMAScript (ajv, with the `u` flag) and Python (`re`).
 *
 * Built digit by digit: every number shorter than `max`, then for each position i of `max`, the
 * numbers that share its first i digits and have a smaller digit at i (anything after), then
 * `max` itself.
 *
 * @example
 * const pattern = new RegExp(decimalRangePattern({ min: 1n, max: 255n }), 'u')
 * pattern.test('255') // true
 * pattern.test('0255') // true
 * pattern.test('256') // false
 * pattern.test('0') // false
 */
export function decimalRangePattern({ min, max }: DecimalRangePatternParameters): string {
  if (max < 1n) throw new RangeError(`max must be at least 1: ${max}`)
  const digits = max.toString()
  const alternatives: string[] = []
  // Every number with fewer digits than max (no leading zero: the `0*` prefix takes those).
  if (digits.length > 1) alternatives.push(digits.length === 2 ? '[1-9]' : `[1-9][0-9]{0,${digits.length - 2}}`)
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0
    const high = Number(digits[i]) - 1
    if (high < low) continue
    const rest = digits.length - 1 - i
    const digit = low === high ? String(low) : `[${low}-${high}]`
    alternatives.push(`${digits.slice(0, i)}${digit}${rest === 0 ? '' : rest === 1 ? '[0-9]' : `[0-9]{${rest}}`}`)
  }
  alternatives.push(digits)
  const positive = `0*(?:${alternatives.join('|')})`
  return min === 0n ? `^(?:0+|${positive})$` : `^${positive}$`
}
