/** Digits of the largest uint256: every amount key has exactly this many. */
export const AMOUNT_KEY_DIGITS = 78

/**
 * An amount as a sortable key: zero-padded to 78 digits, so comparing keys as text compares the
 * amounts as numbers, on SQLite and PostgreSQL alike.
 *
 * @example
 * amountKey(42n) // '000…00042' (78 characters)
 */
export function amountKey(value: bigint): string {
  if (value < 0n) throw new RangeError(`amountKey: negative amount ${value}`)
  const digits = value.toString()
  if (digits.length > AMOUNT_KEY_DIGITS) throw new RangeError(`amountKey: ${digits.length} digits`)
  return digits.padStart(AMOUNT_KEY_DIGITS, '0')
}
