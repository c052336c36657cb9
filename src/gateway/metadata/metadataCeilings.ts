import type { FastifyRequest } from 'fastify'
import { ceilings } from '../limits/ceilings.ts'
import type { PolicyCharge } from '../limits/LimitPolicy.ts'
import { perMinute, preparationCeilings } from '../limits/preparationCeilings.ts'

const day = (name: string, key: string, limit: number): PolicyCharge => ({
  policy: { kind: 'calendar', name, key, limit, period: 'day' },
  group: 'ceiling',
  cost: 1,
})

/**
 * Spec §8 "announcement or metadata preparations, same creator or actor within a key": 20 per
 * minute; with the shared preparation ceilings when a transaction is prepared.
 *
 * @example
 * config: { gateway: { ceilings: (request) => actorCeilings(request, true) } }
 * // actorCeilings(request, true) → preparations_per_actor (20 a minute) and the preparation ceilings
 */
export function actorCeilings(request: FastifyRequest, preparesTransaction: boolean): PolicyCharge[] {
  const actor = (
    (request.body as { actor?: string; author?: string }).actor ??
    (request.body as { author?: string }).author ??
    ''
  ).toLowerCase()
  return [
    perMinute({
      name: 'preparations_per_actor',
      key: `actor:${request.gw.key!.prefix}:${actor}`,
      limit: ceilings.actorPreparations.perActorPerMinute,
    }),
    ...(preparesTransaction ? preparationCeilings(request) : []),
  ]
}

/**
 * The metadata-document (IPFS) route's ceilings (spec §8): per key 10 a minute and 100 a day,
 * per token 2 a minute and 25 a day; the shared pinning workflow per source (20 a minute, 500 a
 * day) and service-wide (120, 5,000); and the actor's and the preparation ceilings.
 *
 * @example
 * config: { gateway: { ceilings: documentCeilings } }
 * // documentCeilings(request) → per key, per token, pinning per source and service-wide, then the actor's and preparation ceilings
 */
export function documentCeilings(request: FastifyRequest): PolicyCharge[] {
  const key = request.gw.key!.prefix
  const { chain, token } = request.params as { chain: string; token: string }
  const t = `${chain}:${token.toLowerCase()}`
  const c = ceilings.documents
  return [
    perMinute({ name: 'documents_per_key', key: `doc:key:${key}`, limit: c.perKeyPerMinute }),
    day('documents_per_key_day', `doc:key:day:${key}`, c.perKeyPerDay),
    perMinute({ name: 'documents_per_token', key: `doc:token:${key}:${t}`, limit: c.perTokenPerMinute }),
    day('documents_per_token_day', `doc:token:day:${key}:${t}`, c.perTokenPerDay),
    perMinute({ name: 'pinning_per_source', key: `pin:source:${request.gw.source}`, limit: c.pinningPerSourcePerMinute }),
    day('pinning_per_source_day', `pin:source:day:${request.gw.source}`, c.pinningPerSourcePerDay),
    perMinute({ name: 'pinning_service', key: 'pin:service', limit: c.pinningServiceWidePerMinute }),
    day('pinning_service_day', 'pin:service:day', c.pinningServiceWidePerDay),
    ...actorCeilings(request, true),
  ]
}
