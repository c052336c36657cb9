import { type Static, Type } from 'typebox'
import type { SwapDeployment } from './SwapDeployment.ts'
import type { SwapSchemaContext } from './swapComponents.ts'

const nativeOrToken = 'a token, or the native asset: 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE or the zero address'

/**
 * The fields /quote and /execute share (spec QuoteRequest / ExecuteRequest), narrowed to what
 * this deployment accepts: its one chain, amounts the router can hold, integers JSON carries
 * exactly, and the fee it can pay out (docs/http-api.md, "The document is exact").
 *
 * @example
 * Type.Object({ ...tradeFields({ chainId: 8453, weth, router, maxFeeBps: 0 }), user: Type.Ref('Address') })
 * // feeBps here accepts only 0 (maxFeeBps: 0); chainId only 8453
 */
export function tradeFields({ chainId, maxFeeBps }: SwapDeployment) {
  return {
    chainId: Type.Integer({
      const: chainId,
      description: `the chain this service quotes: ${chainId} (the spec allows any chain id >= 1; another one is refused)`,
    }),
    tokenIn: Type.Ref('Address', { description: nativeOrToken }),
    tokenOut: Type.Ref('Address', { description: nativeOrToken }),
    amountIn: Type.Ref('PositiveUint256String'),
    slippageBps: Type.Ref('Bps'),
    // No maximum: any depth beyond the engine's deepest search means that search (metadata.maxHopsSearched).
    maxHops: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'at most this many legs per route; any integer >= 1: deeper than the engine searches means its deepest (metadata.maxHopsSearched)',
      }),
    ),
    splitEnabled: Type.Optional(Type.Boolean()),
    enforcePoolDisjoint: Type.Optional(Type.Boolean()),
    allowedDexes: Type.Optional(Type.Array(Type.Ref('DexId'), { minItems: 1 })),
    feeBps: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: maxFeeBps,
        description:
          maxFeeBps === 0
            ? 'integrator fee in bps of the output; this server has no fee recipient configured, so only 0'
            : `integrator fee in bps of the output, at most ${maxFeeBps} on this server`,
      }),
    ),
  }
}

/** `timeBudgetMs`: 50..10000; omitted means the engine default (`SOLVER_TIME_BUDGET_MS`). */
export const TimeBudgetMs = Type.Integer({
  minimum: 50,
  maximum: 10_000,
  description: 'optimizer wall-clock budget in ms; omitted: the engine default',
})

/**
 * The spec's QuoteRequest for this deployment: no extra properties.
 *
 * @example
 * fastify.addSchema(quoteRequestSchema({ chainId: 8453, weth, router, maxFeeBps: 10_000 })) // $id 'QuoteRequest'
 */
export function quoteRequestSchema(deployment: SwapDeployment) {
  return Type.Object(
    {
      ...tradeFields(deployment),
      taker: Type.Optional(Type.Ref('Address')),
      timeBudgetMs: Type.Optional(TimeBudgetMs),
    },
    { $id: 'QuoteRequest', additionalProperties: false },
  )
}
export type QuoteRequest = Static<ReturnType<typeof quoteRequestSchema>, SwapSchemaContext>

/** The spec's QuoteResponse. */
export const QuoteResponse = Type.Object(
  {
    quoteId: Type.String({ description: 'lowercase hex SHA-256 (or HMAC-SHA256) of the canonical quote payload; see docs/http-api.md' }),
    routePlan: Type.Ref('RoutePlan'),
    expiresAt: Type.Ref('Int64'),
  },
  { $id: 'QuoteResponse', additionalProperties: false },
)
export type QuoteResponse = Static<typeof QuoteResponse, SwapSchemaContext>
