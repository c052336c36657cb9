import { Type } from 'typebox'
import type { Address as AddressType, Hex as HexType } from 'viem'
import type { DexId as DexIdType } from '../../../bindings/types.ts'
import { adapterRegistry } from '../../adapters/registry.ts'
import { decimalRangePattern } from './decimalRangePattern.ts'

// The spec's scalar types (000_f13919b75e53ad89.txt §2), each an OpenAPI component (`$id`) that
// the other schemas reference with `Type.Ref`. Every pattern of the spec is kept verbatim; the
// narrower ones (uint256 amounts, 32-byte words) are this service's exact bounds for requests.
// A description reads after "must be": a value that misses the pattern is answered
// `field: must be <description>` (errors.ts).

/** The largest uint256: what the router's amounts hold. */
export const UINT256_MAX = 2n ** 256n - 1n

/** The largest integer a JSON number carries exactly through `JSON.parse` (2^53 - 1). */
export const MAX_JSON_SAFE_INTEGER = Number.MAX_SAFE_INTEGER

/** `^0x[a-fA-F0-9]{40}$`; the sentinel 0xEeee…EEeE or the zero address is the native asset. */
export const Address = Type.Unsafe<AddressType>({
  $id: 'Address',
  type: 'string',
  pattern: '^0x[a-fA-F0-9]{40}$',
  description: 'a 20-byte hex address: 0x and 40 hex digits, any letter case',
})

/** `^0x[a-fA-F0-9]*$`. */
export const Hex = Type.Unsafe<HexType>({
  $id: 'Hex',
  type: 'string',
  pattern: '^0x[a-fA-F0-9]*$',
  description: 'hex bytes: 0x and hex digits',
})

/** A 32-byte word: what the router's permit takes for `r` and `s` (`bytes32`). */
export const Bytes32 = Type.Unsafe<HexType>({
  $id: 'Bytes32',
  type: 'string',
  pattern: '^0x[a-fA-F0-9]{64}$',
  description: '32 bytes of hex: 0x and 64 hex digits',
})

/** `^[0-9]+$`: a non-negative integer in decimal, in wei (or the token's smallest unit). */
export const AmountString = Type.String({ $id: 'AmountString', pattern: '^[0-9]+$', description: 'a non-negative integer in decimal' })

/** An AmountString the router can hold: 0..2^256-1 (leading zeros allowed). */
export const Uint256String = Type.String({
  $id: 'Uint256String',
  pattern: decimalRangePattern({ min: 0n, max: UINT256_MAX }),
  description: 'a decimal integer in 0..2^256-1 (an AmountString a uint256 holds; leading zeros allowed)',
})

/** An AmountString that can be swapped: 1..2^256-1 (leading zeros allowed). */
export const PositiveUint256String = Type.String({
  $id: 'PositiveUint256String',
  pattern: decimalRangePattern({ min: 1n, max: UINT256_MAX }),
  description: 'a decimal integer in 1..2^256-1 (an AmountString a uint256 holds, above zero; leading zeros allowed)',
})

/** Basis points, 0..10000. */
export const Bps = Type.Integer({ $id: 'Bps', minimum: 0, maximum: 10_000, description: 'basis points, 0..10000' })

/** An integer carried as int64 (Unix times). */
export const Int64 = Type.Integer({ $id: 'Int64', format: 'int64' })

/** Every spec DexId (the registry's keys: registry.test.ts checks the registry covers the spec). */
export const dexIds = Object.keys(adapterRegistry) as DexIdType[]
export const DexId = Type.Unsafe<DexIdType>({ $id: 'DexId', type: 'string', enum: dexIds })

/** The body of every error answer. */
export const ErrorBody = Type.Object({ error: Type.String() }, { $id: 'Error', additionalProperties: false })

/** The 429 body: `{error: "rate limit exceeded", limit, windowSec}`. */
export const RateLimitedBody = Type.Object(
  { error: Type.Literal('rate limit exceeded'), limit: Type.Integer(), windowSec: Type.Integer() },
  { $id: 'RateLimitError', additionalProperties: false },
)
