import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'
import { computeQuoteId } from './computeQuoteId.ts'
import type { QuoteStore } from './createQuoteStore.ts'

export type QuoteIssuer = {
  /** Caches `routePlan` for `ttlMs` under its quoteId, scoped to `apiKeyId`. */
  issue: (routePlan: QuoteRoutePlan, apiKeyId: string) => Promise<{ quoteId: string; expiresAt: number }>
}

/**
 * Issues quotes: `expiresAt = now + ttlMs`, `quoteId` from `computeQuoteId`, cached in `store`.
 *
 * @example
 * const issuer = createQuoteIssuer({ store, ttlMs: 30_000 })
 * const { quoteId, expiresAt } = await issuer.issue(plan, request.apiKeyId)
 */
export function createQuoteIssuer({ store, ttlMs, signingKey, now = Date.now }: { store: QuoteStore; ttlMs: number; signingKey?: string; now?: () => number }): QuoteIssuer {
  return {
    issue: async (routePlan, apiKeyId) => {
      const expiresAt = now() + ttlMs
      const { quoteId, canonical } = computeQuoteId({ payload: { apiKeyId, expiresAt, routePlan }, signingKey })
      await store.put({ quoteId, apiKeyId, routePlan, expiresAt }, canonical.length)
      return { quoteId, expiresAt }
    },
  }
}
