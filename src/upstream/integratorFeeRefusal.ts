import type { IntegratorFee, UpstreamFeeTerms, UpstreamSettings } from './UpstreamAdapter.ts'

/**
 * Why an upstream cannot be asked for the caller's integrator fee, or undefined when it can: a fee
 * above the API's documented cap, or a configuration whose API has no per-request fee. Such an
 * upstream is not asked at all (an `unsupported` line): asking it without the fee would put an
 * output before the caller's fee beside outputs after it, and a lower fee would be another trade.
 *
 * @example
 * integratorFeeRefusal({ terms: velora.fee, fee: { bps: 250, recipient }, settings })
 * // 'feeBps 250 is above its maximum integrator fee of 200 bps (partnerFeeBps): not asked'
 */
export function integratorFeeRefusal({
  terms,
  fee,
  settings,
}: {
  terms: UpstreamFeeTerms
  fee: IntegratorFee | undefined
  settings: UpstreamSettings
}): string | undefined {
  if (!fee) return undefined
  const unsupported = terms.unsupported?.(settings)
  if (unsupported) return `${unsupported}: not asked with feeBps ${fee.bps}`
  if (terms.maxBps !== undefined && fee.bps > terms.maxBps)
    return `feeBps ${fee.bps} is above its maximum integrator fee of ${terms.maxBps} bps (${terms.parameters}): not asked`
  return undefined
}
