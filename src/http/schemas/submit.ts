import { Type } from 'typebox'
import { Address, AmountString, Hex, Int64 } from './scalars.ts'

/** The spec's PermitPayload: an EIP-2612 signature of the caller for `tokenIn`, spender the router. */
export const PermitPayload = Type.Object({
  value: AmountString,
  deadline: Int64,
  v: Type.Integer({ minimum: 0, maximum: 255 }),
  r: Hex,
  s: Hex,
}, { additionalProperties: false })

/** The fields /submit and /execute share. */
export const submitFields = {
  user: Address,
  useNativeIn: Type.Optional(Type.Boolean()),
  unwrapNativeOut: Type.Optional(Type.Boolean()),
  permit: Type.Optional(PermitPayload),
}

/** Gas-price fields: validated, never used to build the call (the service does not broadcast). */
export const gasPriceFields = {
  gasPriceWei: Type.Optional(AmountString),
  maxFeePerGasWei: Type.Optional(AmountString),
  maxPriorityFeePerGasWei: Type.Optional(AmountString),
}

/** The spec's SubmitRequest: no extra properties. */
export const SubmitRequest = Type.Object({
  quoteId: Type.String(),
  ...submitFields,
  ...gasPriceFields,
}, { additionalProperties: false })

/** The spec's SubmitResponse. */
export const SubmitResponse = Type.Object({
  quoteId: Type.String(),
  chainId: Type.Integer(),
  to: Address,
  data: Hex,
  value: AmountString,
}, { additionalProperties: false })

