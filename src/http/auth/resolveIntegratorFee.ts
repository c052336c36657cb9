import type { Address } from 'viem'
import { BadRequestError } from '../errors.ts'
import type { ApiKeySettings } from './createApiKeyCheck.ts'

export type ResolveIntegratorFeeParameters = {
  /** The request's `feeBps` (absent: 0). */
  feeBps: number | undefined
  /** The caller's key settings (`ApiKeyCheck.settingsOf`). */
  key: ApiKeySettings
  /** The service's `FEE_RECIPIENT` (or the embedded chain's default). */
  feeRecipient: Address | undefined
  /** The service's `MAX_FEE_BPS`. */
  maxFeeBps: number
}

/**
 * Where a request's integrator fee goes, or a 400 naming `feeBps`: the key's own `feeRecipient`
 * and `maxFeeBps` win over the service's `FEE_RECIPIENT` and `MAX_FEE_BPS`. A fee above the cap
 * is refused (never lowered: the caller would be quoted a fee it did not ask for), and so is any
 * fee with nowhere to go. `feeBps` 0 needs neither and has no recipient.
 *
 * @example
 * resolveIntegratorFee({ feeBps: 25, key: deps.apiKeys.settingsOf(request.apiKeyId), feeRecipient: deps.feeRecipient, maxFeeBps: deps.maxFeeBps })
 * // '0xa0Ee…9720' (or undefined when feeBps is 0)
 */
export function resolveIntegratorFee({ feeBps = 0, key, feeRecipient, maxFeeBps }: ResolveIntegratorFeeParameters): Address | undefined {
  if (feeBps === 0) return undefined
  const cap = key.maxFeeBps ?? maxFeeBps
  if (feeBps > cap) {
    const origin = key.maxFeeBps === undefined ? 'MAX_FEE_BPS' : "this key's maxFeeBps"
    const whole = feeBps >= 10_000 ? '; a 100 % fee would leave the recipient nothing' : ''
    throw new BadRequestError({
      field: 'feeBps',
      message: `${feeBps} is above the maximum of ${cap} bps for this API key (${origin})${whole}`,
    })
  }
  const recipient = key.feeRecipient ?? feeRecipient
  if (!recipient) {
    throw new BadRequestError({
      field: 'feeBps',
      message: 'this server has no fee recipient configured (FEE_RECIPIENT): only 0 is accepted',
    })
  }
  return recipient
}
