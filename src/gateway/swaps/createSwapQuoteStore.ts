import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import type { permitTypedDataJson } from './permitTypedData.ts'

/** A swap quote as answered (`POST /swaps/quote`). */
export type SwapQuote = {
  quote_id: string
  chain_id: number
  wallet: string
  token_in: string
  token_out: string
  amount_in: string
  amount_out: string
  min_amount_out: string
  slippage_bps: number
  price_impact_bps: number | null
  route: { amount_in: string; pools: string[]; dexes: string[] }[]
  gas_units: number
  as_of_block: number
  expires_at: string
  /** The EIP-2612 permit to sign instead of an approval (`permitTypedDataJson`), or null. */
  permit: { typed_data: ReturnType<typeof permitTypedDataJson> } | null
}

export type StoredSwapQuote = { quote: SwapQuote; routePlan: QuoteRoutePlan; keyPrefix: string; expiresAt: number }

export type SwapQuoteStore = {
  save: (input: { quote: SwapQuote; routePlan: QuoteRoutePlan; keyPrefix: string; createdAt: number; expiresAt: number }) => Promise<void>
  get: (quoteId: string) => Promise<StoredSwapQuote | undefined>
}

/**
 * The swap quotes the gateway answered, in its store (`swap_quotes`, migration 004), with the
 * route plan each was priced with, so `POST /swaps/prepare` builds exactly the quoted route.
 * Purged with the plans after 24 hours (`createTransactionPlanStore`).
 *
 * @example
 * const quotes = createSwapQuoteStore({ db })
 * // → { save, get }: get(quoteId) answers the stored quote with its route plan, or undefined
 */
export function createSwapQuoteStore({ db }: { db: SqlDatabase }): SwapQuoteStore {
  return {
    save: async ({ quote, routePlan, keyPrefix, createdAt, expiresAt }) => {
      await db.execute(
        'INSERT INTO swap_quotes (quote_id, key_prefix, chain_id, wallet, created_at, expires_at, body, route_plan) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [
          quote.quote_id,
          keyPrefix,
          quote.chain_id,
          quote.wallet.toLowerCase(),
          createdAt,
          expiresAt,
          JSON.stringify(quote),
          JSON.stringify(routePlan),
        ],
      )
    },
    get: async (quoteId) => {
      const [row] = await db.query<{ key_prefix: string; expires_at: number; body: string; route_plan: string }>(
        'SELECT key_prefix, expires_at, body, route_plan FROM swap_quotes WHERE quote_id = $1',
        [quoteId],
      )
      return row
        ? {
            quote: JSON.parse(row.body) as SwapQuote,
            routePlan: JSON.parse(row.route_plan) as QuoteRoutePlan,
            keyPrefix: row.key_prefix,
            expiresAt: Number(row.expires_at),
          }
        : undefined
    },
  }
}
