import { type Static, Type } from 'typebox'
import { addressPattern } from './addressPattern.ts'
import { TimeBudgetMs, tradeFields } from './quote.ts'
import { submitFields } from './submit.ts'
import type { SwapDeployment } from './SwapDeployment.ts'
import type { SwapSchemaContext } from './swapComponents.ts'

const NATIVE_SENTINEL = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/**
 * The combinations the router cannot execute, stated in the schema (each a `not` whose negated
 * schema's description is the 400 message): a permit on a native-in swap (nothing is pulled), a
 * wrap into anything but WETH, an unwrap of anything but WETH, and between the native asset and
 * WETH (the router's own wrap or unwrap) both ends native or neither. On /submit the same rules depend on
 * the stored quote, so there they are checked against it (docs/http-api.md).
 */
function nativeFlagRules({ weth }: SwapDeployment) {
  const native = addressPattern([NATIVE_SENTINEL, ZERO_ADDRESS])
  const wrappable = addressPattern([NATIVE_SENTINEL, ZERO_ADDRESS, weth])
  const nativeToken = { type: 'string', pattern: native }
  const wethToken = { type: 'string', pattern: addressPattern([weth]) }
  return [
    {
      not: {
        required: ['permit'],
        anyOf: [
          { required: ['useNativeIn'], properties: { useNativeIn: { const: true } } },
          { not: { required: ['useNativeIn'] }, properties: { tokenIn: { type: 'string', pattern: native } } },
        ],
        description:
          'permit: a native-in swap pulls no token, so it takes no permit (useNativeIn is true, or tokenIn is the native asset and useNativeIn is not false)',
      },
    },
    {
      not: {
        required: ['useNativeIn'],
        properties: { useNativeIn: { const: true }, tokenIn: { not: { type: 'string', pattern: wrappable } } },
        description: `useNativeIn: true needs tokenIn to be the native asset or ${weth} (the router wraps only into WETH)`,
      },
    },
    {
      not: {
        required: ['unwrapNativeOut'],
        properties: { unwrapNativeOut: { const: true }, tokenOut: { not: { type: 'string', pattern: wrappable } } },
        description: `unwrapNativeOut: true needs tokenOut to be the native asset or ${weth} (the router unwraps only WETH)`,
      },
    },
    // The router's own wrap or unwrap (no route: src/http/buildSwapTransaction.ts) needs exactly
    // one native end, each flag defaulting to its token being the native asset.
    {
      not: {
        required: ['tokenIn', 'tokenOut'],
        anyOf: [
          // ETH → WETH: unwrapping too, or not wrapping.
          {
            properties: { tokenIn: nativeToken, tokenOut: wethToken, unwrapNativeOut: { const: true }, useNativeIn: { const: true } },
            required: ['unwrapNativeOut'],
          },
          {
            properties: { tokenIn: nativeToken, tokenOut: wethToken, useNativeIn: { const: false }, unwrapNativeOut: { const: false } },
            required: ['useNativeIn'],
          },
          // WETH → ETH: wrapping too, or not unwrapping.
          {
            properties: { tokenIn: wethToken, tokenOut: nativeToken, useNativeIn: { const: true }, unwrapNativeOut: { const: true } },
            required: ['useNativeIn'],
          },
          {
            properties: { tokenIn: wethToken, tokenOut: nativeToken, unwrapNativeOut: { const: false }, useNativeIn: { const: false } },
            required: ['unwrapNativeOut'],
          },
        ],
        description: `useNativeIn, unwrapNativeOut: between the native asset and ${weth} the router only wraps or unwraps, so exactly one end is native (each flag defaults to its token being the native asset)`,
      },
    },
  ]
}

/**
 * The spec's ExecuteRequest for this deployment (no extra properties), plus `timeBudgetMs` (our
 * decision: the one-shot call may bound its own latency). `user` is the taker and the recipient;
 * the gas-price fields of /submit are not accepted here (docs/http-api.md).
 *
 * @example
 * fastify.addSchema(executeRequestSchema({ chainId: 8453, weth, router, maxFeeBps: 10_000 })) // $id 'ExecuteRequest'
 */
export function executeRequestSchema(deployment: SwapDeployment) {
  return Type.Object(
    {
      ...tradeFields(deployment),
      ...submitFields(deployment),
      timeBudgetMs: Type.Optional(TimeBudgetMs),
    },
    { $id: 'ExecuteRequest', additionalProperties: false, allOf: nativeFlagRules(deployment) },
  )
}
export type ExecuteRequest = Static<ReturnType<typeof executeRequestSchema>, SwapSchemaContext>

/** The union of QuoteResponse and SubmitResponse. */
export const ExecuteResponse = Type.Object(
  {
    quoteId: Type.String(),
    chainId: Type.Integer(),
    to: Type.Ref('Address'),
    data: Type.Ref('Hex'),
    value: Type.Ref('AmountString'),
    routePlan: Type.Ref('RoutePlan'),
    expiresAt: Type.Ref('Int64'),
  },
  { $id: 'ExecuteResponse', additionalProperties: false },
)
