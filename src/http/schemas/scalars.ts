import { Type } from 'typebox'
import { adapterRegistry } from '../../adapters/registry.ts'
import type { DexId as DexIdType } from '../../../bindings/types.ts'

// The spec's scalar types (000_f13919b75e53ad89.txt §2). Every pattern is the spec's, verbatim.

/** `^0x[a-fA-F0-9]{40}$`; the sentinel 0xEeee…EEeE or the zero address is the native asset. */
export const Address = Type.String({ pattern: '^0x[a-fA-F0-9]{40}$', description: '20-byte hex address' })

/** `^0x[a-fA-F0-9]*$`. */
export const Hex = Type.String({ pattern: '^0x[a-fA-F0-9]*$', description: 'hex bytes' })

/** `^[0-9]+$`: a non-negative integer in decimal, in wei (or the token's smallest unit). */
export const AmountString = Type.String({ pattern: '^[0-9]+$', description: 'non-negative integer in decimal' })

/** Basis points, 0..10000. */
export const Bps = Type.Integer({ minimum: 0, maximum: 10_000 })

/** An integer carried as int64 (Unix times). */
export const Int64 = Type.Integer({ format: 'int64' })

/** Every spec DexId (the registry's keys: registry.test.ts checks the registry covers the spec). */
export const dexIds = Object.keys(adapterRegistry) as DexIdType[]
export const DexId = Type.Unsafe<DexIdType>({ type: 'string', enum: dexIds })

/** The body of every error answer. */
export const ErrorBody = Type.Object({ error: Type.String() }, { additionalProperties: false })

/** The 429 body: `{error: "rate limit exceeded", limit, windowSec}`. */
export const RateLimitedBody = Type.Object(
  { error: Type.Literal('rate limit exceeded'), limit: Type.Integer(), windowSec: Type.Integer() },
  { additionalProperties: false },
)
