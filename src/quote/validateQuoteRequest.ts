import { isAddress } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { InvalidQuoteRequestError } from './errors.ts'
import type { QuoteRequest } from './quoteTypes.ts'

const dexIds = new Set(Object.keys(adapterRegistry))

/**
 * The spec's QuoteRequest rules (and this service's chain); anything else is refused with an
 * `InvalidQuoteRequestError` naming the field. `maxHops` is any integer >= 1, as the spec says:
 * the service searches at most the solver's depth and says so (createQuoteService).
 *
 * @example
 * validateQuoteRequest({ request: { chainId: 8453, tokenIn, tokenOut, amountIn: '1', slippageBps: 50, maxHops: 1e300 }, chainId: 8453 }) // ok
 * validateQuoteRequest({ request: { ...request, slippageBps: 10_001 }, chainId: 8453 }) // throws 'slippageBps: must be an integer in 0..10000: 10001'
 */
export function validateQuoteRequest({ request, chainId }: { request: QuoteRequest; chainId: number }): QuoteRequest {
  const fail = (field: string, message: string): never => {
    throw new InvalidQuoteRequestError({ field, message })
  }
  const int = (field: keyof QuoteRequest, min: number, max: number, required: boolean) => {
    const v = request[field]
    if (v === undefined) return required ? fail(field, 'is required') : undefined
    const range = Number.isFinite(max) ? `${min}..${max}` : `>= ${min}`
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(field, `must be an integer ${Number.isFinite(max) ? 'in ' : ''}${range}: ${String(v)}`)
  }
  if (request.chainId !== chainId) fail('chainId', `this service quotes chain ${chainId}, not ${String(request.chainId)}`)
  for (const field of ['tokenIn', 'tokenOut'] as const) {
    if (typeof request[field] !== 'string' || !isAddress(request[field], { strict: false })) fail(field, `not an address: ${String(request[field])}`)
  }
  if (request.taker !== undefined && !isAddress(request.taker, { strict: false })) fail('taker', `not an address: ${request.taker}`)
  if (typeof request.amountIn !== 'string' || !/^[0-9]+$/.test(request.amountIn)) fail('amountIn', `not an amount: ${String(request.amountIn)}`)
  if (BigInt(request.amountIn) === 0n) fail('amountIn', 'must be above 0')
  if (BigInt(request.amountIn) >= 2n ** 256n) fail('amountIn', 'above 2^256 - 1')
  int('slippageBps', 0, 10_000, true)
  int('feeBps', 0, 10_000, false)
  int('maxHops', 1, Number.POSITIVE_INFINITY, false)
  int('timeBudgetMs', 50, 10_000, false)
  for (const field of ['splitEnabled', 'enforcePoolDisjoint'] as const) {
    if (request[field] !== undefined && typeof request[field] !== 'boolean') fail(field, 'must be a boolean')
  }
  if (request.allowedDexes !== undefined) {
    if (!Array.isArray(request.allowedDexes) || request.allowedDexes.length === 0) fail('allowedDexes', 'at least one DexId when present')
    for (const dex of request.allowedDexes as DexId[]) if (!dexIds.has(dex)) fail('allowedDexes', `not a DexId: ${String(dex)}`)
  }
  return request
}
