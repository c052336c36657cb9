import type { SharedRedis } from '../../limits/redis/connectRedis.ts'
import type { QuoteStore, StoredQuote } from './createQuoteStore.ts'

export type CreateRedisQuoteStoreParameters = {
  redis: SharedRedis
  /** Key prefix (several services may share one Redis). */
  prefix?: string
  now?: () => number
}

/**
 * The quote store shared by every instance: a quote made on instance A can be submitted on B.
 * Each quote is one key holding its JSON, set to expire at the quote's own `expiresAt` (`PXAT`,
 * Redis's clock), and checked against it again on read (exact expiry, whatever the clocks). The
 * owner check is the memory store's: an unknown, expired and someone else's quote look the same.
 * Bounds: Redis's own memory policy (docs/scaling.md), not `QUOTE_CACHE_MAX_*`. Redis unreachable:
 * `put` and `get` throw `SharedStateUnavailableError` (503).
 *
 * @example
 * const store = createRedisQuoteStore({ redis })
 * await store.put(quote, canonical.length) // Redis now holds swap:quote:<quoteId> (JSON), expiring at quote.expiresAt
 */
export function createRedisQuoteStore({ redis, prefix = 'swap:', now = Date.now }: CreateRedisQuoteStoreParameters): QuoteStore {
  const keyOf = (quoteId: string) => `${prefix}quote:${quoteId}`
  let written = 0
  return {
    put: async (quote) => {
      if (quote.expiresAt <= now()) return
      await redis.run((c) => c.set(keyOf(quote.quoteId), JSON.stringify(quote), { expiration: { type: 'PXAT', value: quote.expiresAt } }))
      written++
    },
    get: async (quoteId, apiKeyId) => {
      const text = await redis.run((c) => c.get(keyOf(quoteId)))
      if (text === null || text === undefined) return undefined
      const quote = JSON.parse(String(text)) as StoredQuote
      if (quote.expiresAt <= now()) return undefined
      return quote.apiKeyId === apiKeyId ? quote : undefined
    },
    // Quotes written by this instance (the shared count is Redis's own: DBSIZE).
    size: () => written,
    clear: async () => {
      await redis.run(async (c) => {
        for await (const keys of c.scanIterator({ MATCH: `${prefix}quote:*`, COUNT: 1000 })) if (keys.length > 0) await c.del(keys)
      })
      written = 0
    },
  }
}
