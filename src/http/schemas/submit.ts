import { type Static, Type } from 'typebox'
import { addressPattern } from './addressPattern.ts'
import { MAX_JSON_SAFE_INTEGER } from './scalars.ts'
import type { SwapDeployment } from './SwapDeployment.ts'
import type { SwapSchemaContext } from './swapComponents.ts'

/**
 * The spec's PermitPayload, within what the router's `Permit` struct holds: `value` a uint256,
 * `deadline` a non-negative integer (Unix seconds) that JSON carries exactly, `r`/`s` 32 bytes.
 * An EIP-2612 signature of the caller for `tokenIn`, spender the router.
 */
export const PermitPayload = Type.Object(
  {
    value: Type.Ref('Uint256String'),
    deadline: Type.Integer({
      format: 'int64',
      minimum: 0,
      maximum: MAX_JSON_SAFE_INTEGER,
      description: 'Unix seconds at which the permit expires',
    }),
    v: Type.Integer({ minimum: 0, maximum: 255 }),
    r: Type.Ref('Bytes32'),
    s: Type.Ref('Bytes32'),
  },
  { $id: 'PermitPayload', additionalProperties: false },
)
export type PermitPayload = Static<typeof PermitPayload, SwapSchemaContext>

/**
 * `user`: an Address that is not our router (the router refuses to pay itself). A `not` carries
 * its refusal message as the negated schema's description (errors.ts answers it as the 400).
 */
function userSchema({ router }: SwapDeployment) {
  return Type.Unsafe<`0x${string}`>({
    allOf: [{ $ref: 'Address' }],
    not: {
      type: 'string',
      pattern: addressPattern([router]),
      description: `user: must not be the router ${router} (it would pay the router itself)`,
    },
    description: `receives the output (the router's recipient); any address but the router ${router}`,
  })
}

/**
 * The fields /submit and /execute share.
 *
 * @example
 * Type.Object({ quoteId: Type.String(), ...submitFields(deployment) })
 * // → { quoteId, user, useNativeIn?, unwrapNativeOut?, permit? } as one TypeBox object
 */
export function submitFields(deployment: SwapDeployment) {
  return {
    user: userSchema(deployment),
    useNativeIn: Type.Optional(Type.Boolean()),
    unwrapNativeOut: Type.Optional(Type.Boolean()),
    permit: Type.Optional(Type.Ref('PermitPayload')),
  }
}

/** Gas-price fields: validated, never used to build the call (the service does not broadcast). */
export const gasPriceFields = {
  gasPriceWei: Type.Optional(Type.Ref('AmountString')),
  maxFeePerGasWei: Type.Optional(Type.Ref('AmountString')),
  maxPriorityFeePerGasWei: Type.Optional(Type.Ref('AmountString')),
}

/** A legacy gas price and the EIP-1559 fields describe two kinds of transaction: one or the other. */
const legacyAndEip1559GasFields = {
  required: ['gasPriceWei'],
  anyOf: [{ required: ['maxFeePerGasWei'] }, { required: ['maxPriorityFeePerGasWei'] }],
  description:
    'gasPriceWei: cannot be combined with maxFeePerGasWei / maxPriorityFeePerGasWei (a legacy gas price or EIP-1559 fees, not both)',
}

/**
 * The spec's SubmitRequest for this deployment: no extra properties.
 *
 * @example
 * fastify.addSchema(submitRequestSchema({ chainId: 8453, weth, router, maxFeeBps: 10_000 })) // $id 'SubmitRequest'
 */
export function submitRequestSchema(deployment: SwapDeployment) {
  return Type.Object(
    {
      quoteId: Type.String({
        description: 'the quoteId of a /quote or /execute answer made with the same API key; an unknown or expired one is a 404',
      }),
      ...submitFields(deployment),
      ...gasPriceFields,
    },
    { $id: 'SubmitRequest', additionalProperties: false, not: legacyAndEip1559GasFields },
  )
}
export type SubmitRequest = Static<ReturnType<typeof submitRequestSchema>, SwapSchemaContext>

/** The spec's SubmitResponse. */
export const SubmitResponse = Type.Object(
  {
    quoteId: Type.String(),
    chainId: Type.Integer(),
    to: Type.Ref('Address'),
    data: Type.Ref('Hex'),
    value: Type.Ref('AmountString'),
  },
  { $id: 'SubmitResponse', additionalProperties: false },
)
