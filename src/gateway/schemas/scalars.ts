import { Type } from 'typebox'

// The gateway's scalar types, each an OpenAPI component (`$id`) the other schemas reference.

/** A 20-byte address: 0x and 40 hex digits, any case on input; answers use the EIP-55 checksum. */
export const GwAddress = Type.String({
  $id: 'GwAddress',
  pattern: '^0x[a-fA-F0-9]{40}$',
  description: 'a 20-byte hex address (0x and 40 hex digits)',
})

/** A 32-byte transaction hash. */
export const GwTxHash = Type.String({
  $id: 'GwTxHash',
  pattern: '^0x[a-fA-F0-9]{64}$',
  description: 'a 32-byte hex hash (0x and 64 hex digits)',
})

/** An amount in the asset's base units, in decimal: amounts are integers end to end. */
export const GwAmount = Type.String({
  $id: 'GwAmount',
  pattern: '^[0-9]+$',
  description: 'a non-negative integer in decimal, in base units',
})

/** How final a block is on its chain: at or below the finalized block, the safe block, or neither. */
export const GwFinality = Type.Union([Type.Literal('finalized'), Type.Literal('safe'), Type.Literal('unsafe')], {
  $id: 'GwFinality',
  description: 'finalized, safe (may still reorganise in theory) or unsafe (may reorganise)',
})

/** An ISO 8601 UTC time. */
export const GwTimestamp = Type.String({ $id: 'GwTimestamp', format: 'date-time' })
