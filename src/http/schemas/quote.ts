import { Type } from 'typebox'
import { RoutePlan } from './routePlan.ts'
import { Address, AmountString, Bps, DexId, Int64 } from './scalars.ts'

/** The fields /quote and /execute share (spec QuoteRequest / ExecuteRequest). */
export const tradeFields = {
  chainId: Type.Integer({ minimum: 1 }),
  tokenIn: Address,
  tokenOut: Address,
  amountIn: AmountString,
  slippageBps: Bps,
  maxHops: Type.Optional(Type.Integer({ minimum: 1 })),
  splitEnabled: Type.Optional(Type.Boolean()),
  enforcePoolDisjoint: Type.Optional(Type.Boolean()),
  allowedDexes: Type.Optional(Type.Array(DexId, { minItems: 1 })),
  feeBps: Type.Optional(Bps),
}

/** `timeBudgetMs`: 50..10000; omitted means the engine default (`SOLVER_TIME_BUDGET_MS`). */
export const TimeBudgetMs = Type.Integer({ minimum: 50, maximum: 10_000 })

/** The spec's QuoteRequest: no extra properties. */
export const QuoteRequest = Type.Object({
  ...tradeFields,
  taker: Type.Optional(Address),
  timeBudgetMs: Type.Optional(TimeBudgetMs),
}, { additionalProperties: false })

/** The spec's QuoteResponse. */
export const QuoteResponse = Type.Object({
  quoteId: Type.String({ description: 'lowercase hex SHA-256 (or HMAC-SHA256) of the canonical quote payload; see docs/http-api.md' }),
  routePlan: RoutePlan,
  expiresAt: Int64,
}, { additionalProperties: false })
