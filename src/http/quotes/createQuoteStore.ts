import { LRUCache } from 'lru-cache'
import type { Address } from 'viem'
import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'

export type StoredQuote = {
  quoteId: string
  /** Hex SHA-256 of the API key that made the quote: the only key that may submit it. */
  apiKeyId: string
  routePlan: QuoteRoutePlan
  /** Unix ms. */
  expiresAt: number
  /** Receives the plan's integrator fee: the recipient of the key that made the quote (absent: no fee). */
  feeRecipient?: Address
}

export type QuoteStore = {
  /** Keeps `quote` until its `expiresAt` (or until evicted by the count or byte bound). */
  put: (quote: StoredQuote, sizeBytes: number) => Promise<void>
  /**
   * The quote when it exists, has not expired and belongs to `apiKeyId`; undefined otherwise (an
   * unknown, expired and someone else's quote look the same). Reading does not consume it: a quote
   * may be submitted again until it expires.
   */
  get: (quoteId: string, apiKeyId: string) => Promise<StoredQuote | undefined>
  size: () => number
  clear: () => Promise<void>
}

export type CreateMemoryQuoteStoreParameters = {
  /** At most this many quotes (default 10,000). */
  maxEntries?: number
  /** At most this many bytes of canonical JSON (default 64 MiB). */
  maxBytes?: number
  now?: () => number
}

/**
 * The in-process quote cache: an LRU bounded by count and by bytes, each entry living until its
 * own `expiresAt`. (A Redis store with the same interface shares quotes between instances.)
 *
 * @example
 * const store = createMemoryQuoteStore({ maxEntries: 10_000, maxBytes: 64 * 2 ** 20 })
 * await store.put({ quoteId, apiKeyId, routePlan, expiresAt }, canonical.length)
 * const quote = await store.get(quoteId, apiKeyId)
 * // → the StoredQuote until its expiresAt; undefined after it, or for another apiKeyId
 */
export function createMemoryQuoteStore({
  maxEntries = 10_000,
  maxBytes = 64 * 2 ** 20,
  now = Date.now,
}: CreateMemoryQuoteStoreParameters = {}): QuoteStore {
  const cache = new LRUCache<string, StoredQuote>({ max: maxEntries, maxSize: maxBytes, maxEntrySize: maxBytes })
  return {
    put: async (quote, sizeBytes) => {
      const ttl = quote.expiresAt - now()
      if (ttl <= 0) return
      cache.set(quote.quoteId, quote, { ttl, size: Math.max(1, sizeBytes) })
    },
    get: async (quoteId, apiKeyId) => {
      const quote = cache.get(quoteId)
      if (!quote) return undefined
      // lru-cache's clock is coarse (performance.now, checked lazily): check the exact expiry too.
      if (quote.expiresAt <= now()) {
        cache.delete(quoteId)
        return undefined
      }
      return quote.apiKeyId === apiKeyId ? quote : undefined
    },
    size: () => cache.size,
    clear: async () => cache.clear(),
  }
}
