import { Type } from 'typebox'
import { TimeBudgetMs, tradeFields } from './quote.ts'
import { RoutePlan } from './routePlan.ts'
import { Address, AmountString, Hex, Int64 } from './scalars.ts'
import { submitFields } from './submit.ts'

/**
 * The spec's ExecuteRequest (no extra properties), plus `timeBudgetMs` (our decision: the one-shot
 * call may bound its own latency). `user` is the taker and the recipient; the gas-price fields of
 * /submit are not accepted here (docs/http-api.md).
 */
export const ExecuteRequest = Type.Object({
  ...tradeFields,
  ...submitFields,
  timeBudgetMs: Type.Optional(TimeBudgetMs),
}, { additionalProperties: false })

/** The union of QuoteResponse and SubmitResponse. */
export const ExecuteResponse = Type.Object({
  quoteId: Type.String(),
  chainId: Type.Integer(),
  to: Address,
  data: Hex,
  value: AmountString,
  routePlan: RoutePlan,
  expiresAt: Int64,
}, { additionalProperties: false })
