import type { Address } from 'viem'
import type { ApiKeySettings } from './createApiKeyCheck.ts'

export type HighestFeeCapParameters = {
  /** Every key's settings (`ApiKeyCheck.allSettings()`). */
  keys: readonly ApiKeySettings[]
  /** The service's `FEE_RECIPIENT` (or the embedded chain's default). */
  feeRecipient: Address | undefined
  /** The service's `MAX_FEE_BPS`. */
  maxFeeBps: number
}

/**
 * The highest `feeBps` any key of this server may ask for (its own `maxFeeBps`, else `MAX_FEE_BPS`,
 * and only with somewhere to pay it): the served document's bound for `feeBps`, so a fee above it
 * is refused by the schema and a fee below it only by the caller's own key (resolveIntegratorFee).
 *
 * @example
 * highestFeeCap({ keys: [{}, { maxFeeBps: 500, feeRecipient }], feeRecipient: undefined, maxFeeBps: 300 }) // 500
 */
export function highestFeeCap({ keys, feeRecipient, maxFeeBps }: HighestFeeCapParameters): number {
  return keys.reduce((highest, key) => ((key.feeRecipient ?? feeRecipient) ? Math.max(highest, key.maxFeeBps ?? maxFeeBps) : highest), 0)
}
