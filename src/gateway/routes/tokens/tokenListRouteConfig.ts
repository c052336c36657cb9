import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import type { GatewayRouteConfig } from '../../http/GatewayRouteConfig.ts'
import { readCursor } from '../readCursor.ts'
import { requireChain } from '../requireChain.ts'

/** Spec §9.3: a separate `order` is refused, not ignored. */
export const retiredOrder = {
  order: { reason: 'sort values are self-contained (e.g. sort=newest or sort=oldest); send sort alone, without order.' },
}

export type TokenListRouteConfigParameters = {
  deps: GatewayDependencies
  operation: string
  /** The request's filter set (a cursor is tied to it). */
  filtersOf: (request: FastifyRequest) => Record<string, unknown>
  /** The route's own checks, first (combinations of parameters). */
  check?: (request: FastifyRequest) => void
}

/**
 * The gateway settings the three token lists share (list, search, creator): `tokens:read`, 2
 * units per 25 rows, 25 rows by default, `order` refused, the `chain` filter a served chain, and
 * the cursor decoded for this route and filter set.
 *
 * @example
 * config: { gateway: tokenListRouteConfig({ deps, operation: 'tokens.search', filtersOf }) }
 * // → { operation: 'tokens.search', scope: 'tokens:read', weight: { base: 2, rowsPerStep: 25 }, defaultLimit: 25, … }
 */
export function tokenListRouteConfig({ deps, operation, filtersOf, check }: TokenListRouteConfigParameters): GatewayRouteConfig {
  return {
    operation,
    scope: 'tokens:read',
    weight: { base: 2, rowsPerStep: 25 },
    defaultLimit: 25,
    retiredParameters: retiredOrder,
    validate: (request) => {
      check?.(request)
      const chain = (request.query as { chain?: number }).chain
      if (chain !== undefined) requireChain({ deps, chainId: chain })
      readCursor({ request, deps, route: operation, filters: filtersOf(request) })
    },
  }
}
