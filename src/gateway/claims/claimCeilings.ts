import type { FastifyRequest } from 'fastify'
import { ceilings } from '../limits/ceilings.ts'
import type { PolicyCharge } from '../limits/LimitPolicy.ts'
import { perMinute, preparationCeilings } from '../limits/preparationCeilings.ts'

/**
 * A claim batch's ceilings (spec §8): fee and vesting batches together, 20 per key and 10 per
 * chain and caller (across keys) per minute; and the shared preparation ceilings.
 *
 * @example
 * config: { gateway: { ceilings: claimCeilings } }
 * // claimCeilings(request) → claim_batches_per_key (20 a minute), the per chain and caller one (10), and the preparation ceilings
 */
export function claimCeilings(request: FastifyRequest): PolicyCharge[] {
  const body = request.body as { chain_id: number; wallet: string }
  return [
    perMinute({ name: 'claim_batches_per_key', key: `claims:key:${request.gw.key!.prefix}`, limit: ceilings.claims.perKeyPerMinute }),
    perMinute({
      name: 'claim_batches_per_caller',
      key: `claims:caller:${body.chain_id}:${body.wallet.toLowerCase()}`,
      limit: ceilings.claims.perChainCallerPerMinute,
    }),
    ...preparationCeilings(request),
  ]
}
