import type { Address } from 'viem'
import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'
import { computeQuoteId } from './computeQuoteId.ts'
import type { QuoteStore } from './createQuoteStore.ts'

export type QuoteIssuer = {
  /**
   * Caches `routePlan` for `ttlMs` under its quoteId, scoped to `apiKeyId`, with the recipient of
   * its integrator fee (the key's, resolved when the quote was priced; /submit pays that one).
   */
  issue: (routePlan: QuoteRoutePlan, apiKeyId: string, feeRecipient?: Address) => Promise<{ quoteId: string; expiresAt: number }>
}

/**
 * Issues quotes: `expiresAt = now + ttlMs`, `quoteId` from `computeQuoteId`, cached in `store`.
 *
 * @example
 * const issuer = createQuoteIssuer({ store, ttlMs: 30_000 })
 * const { quoteId, expiresAt } = await issuer.issue(plan, request.apiKeyId, feeRecipient)
 * // → { quoteId: '<64 hex chars>', expiresAt: now + 30_000 }; the store now holds the plan under it
 */
export function createQuoteIssuer({
  store,
  ttlMs,
  signingKey,
  now = Date.now,
}: {
  store: QuoteStore
  ttlMs: number
  signingKey?: string
  now?: () => number
}): QuoteIssuer {
  return {
    issue: async (routePlan, apiKeyId, feeRecipient) => {
      const expiresAt = now() + ttlMs
      // A plan without a fee pays no one: no recipient is recorded (nor hashed).
      const recipient = routePlan.feeBps > 0 ? feeRecipient : undefined
      const { quoteId, canonical } = computeQuoteId({ payload: { apiKeyId, expiresAt, feeRecipient: recipient, routePlan }, signingKey })
      await store.put({ quoteId, apiKeyId, routePlan, expiresAt, feeRecipient: recipient }, canonical.length)
      return { quoteId, expiresAt }
    },
  }
}
