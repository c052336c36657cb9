import { createHash, createHmac } from 'node:crypto'
import { canonicalJson } from './canonicalJson.ts'

export type QuotePayload = {
  /** The hex SHA-256 of the API key that asked (the quote's scope: only that key can submit it). */
  apiKeyId: string
  /** Unix ms at which the quote is dropped. */
  expiresAt: number
  routePlan: unknown
  /** Who receives the plan's integrator fee (the key's recipient); absent when the plan has no fee. */
  feeRecipient?: string
}

export type ComputeQuoteIdReturnType = {
  quoteId: string
  /** The canonical payload the id is the digest of (its length sizes the cache entry). */
  canonical: string
}

/**
 * `quoteId` = lowercase hex (64 characters) of SHA-256 — or HMAC-SHA256 keyed with
 * `QUOTE_SIGNING_KEY` when one is configured — over the UTF-8 bytes of
 * `canonicalJson({ apiKeyId, expiresAt, feeRecipient, routePlan })` (keys sorted at every level, no
 * whitespace; `feeRecipient` left out when the plan has no fee): the id covers everything
 * `/submit` encodes besides the submit call's own fields.
 *
 * @example
 * const { quoteId } = computeQuoteId({ payload: { apiKeyId, expiresAt, routePlan }, signingKey: process.env.QUOTE_SIGNING_KEY })
 * // → quoteId: HMAC-SHA256 of the canonical JSON, in hex (SHA-256 without a key)
 */
export function computeQuoteId({ payload, signingKey }: { payload: QuotePayload; signingKey?: string }): ComputeQuoteIdReturnType {
  const canonical = canonicalJson({
    apiKeyId: payload.apiKeyId,
    expiresAt: payload.expiresAt,
    feeRecipient: payload.feeRecipient,
    routePlan: payload.routePlan,
  })
  const digest = signingKey ? createHmac('sha256', signingKey) : createHash('sha256')
  return { quoteId: digest.update(canonical, 'utf8').digest('hex'), canonical }
}
