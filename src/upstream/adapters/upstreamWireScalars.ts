import { Type } from 'typebox'

// The scalar shapes the six APIs use in the fields we read, as TypeBox schemas for their response
// validators. Amounts are checked again by parseUpstreamAmount (uint256 range, exact integers).

/** A decimal integer string (an amount in a token's smallest unit, or gas units). */
export const WireDecimal = Type.String({ pattern: '^[0-9]{1,78}$' })
/** A decimal string or a JSON number (OpenOcean's and 1inch's gas figures, Odos' floats). */
export const WireNumberish = Type.Union([WireDecimal, Type.Number({ minimum: 0 })])
/** A 20-byte address, any letter case. */
export const WireAddress = Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })
/** Hex bytes (calldata). */
export const WireHex = Type.String({ pattern: '^0x([a-fA-F0-9]{2})*$' })
