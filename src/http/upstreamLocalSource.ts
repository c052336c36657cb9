import type { Address } from 'viem'
import type { LocalSource } from '../upstream/UpstreamContext.ts'
import type { SwapApiDependencies } from './SwapApiDependencies.ts'

/**
 * Our own solver as a source of /quote/compare and /quote/split for one caller: plans from the quote
 * service, issued under the caller's API key with its fee recipient exactly as POST /quote issues
 * them (so a local quoteId in either answer works on /submit).
 *
 * @example
 * const local = upstreamLocalSource({ deps, apiKeyId: request.apiKeyId, feeRecipient })
 * // → { quote, issue }: quotes are the quote service's, issued under request.apiKeyId
 * const answer = await deps.upstreams.compare(body, local)
 * // → our plan (with a quoteId that works on /submit) beside the upstreams'
 */
export function upstreamLocalSource({
  deps,
  apiKeyId,
  feeRecipient,
}: {
  deps: Pick<SwapApiDependencies, 'quoteService' | 'quoteIssuer'>
  apiKeyId: string
  feeRecipient?: Address
}): LocalSource {
  return {
    quote: (request) => deps.quoteService.quote(request),
    issue: (plan) => deps.quoteIssuer.issue(plan, apiKeyId, feeRecipient),
  }
}
