import type { FastifyRequest } from 'fastify'
import { ceilings } from './ceilings.ts'
import type { PolicyCharge } from './LimitPolicy.ts'

const MINUTE_MS = 60_000

/**
 * The ceiling every transaction-preparing route shares (spec §8 "all live transaction
 * preparation"): 120 per source and 1,000 service-wide per minute, 50 in flight.
 *
 * @example
 * config: { gateway: { ceilings: (request) => [...preparationCeilings(request), ...] } }
 * // preparationCeilings(request) → the window charges preparation_per_source (120 a minute), the service-wide one (1,000) and the in-flight one (50)
 */
export function preparationCeilings(request: FastifyRequest): PolicyCharge[] {
  const c = ceilings.transactionPreparation
  return [
    {
      policy: {
        kind: 'window',
        name: 'preparation_per_source',
        key: `prep:source:${request.gw.source}`,
        limit: c.perSourcePerMinute,
        windowMs: MINUTE_MS,
      },
      group: 'ceiling',
      cost: 1,
    },
    {
      policy: { kind: 'window', name: 'preparation_service', key: 'prep:service', limit: c.serviceWidePerMinute, windowMs: MINUTE_MS },
      group: 'ceiling',
      cost: 1,
    },
    { policy: { kind: 'concurrency', name: 'preparation_in_flight', key: 'prep:inflight', limit: c.inFlight }, group: 'ceiling', cost: 1 },
  ]
}

/**
 * A per-minute ceiling on one subject (a wallet, a creator, a token), counted in requests.
 *
 * @example
 * perMinute({ name: 'swap_quotes_per_wallet', key: `swapq:${wallet}`, limit: 60 })
 * // → { policy: { kind: 'window', name: 'swap_quotes_per_wallet', key, limit: 60, windowMs: 60_000 }, group: 'ceiling', cost: 1 }
 */
export function perMinute({ name, key, limit }: { name: string; key: string; limit: number }): PolicyCharge {
  return { policy: { kind: 'window', name, key, limit, windowMs: MINUTE_MS }, group: 'ceiling', cost: 1 }
}
