import type { FastifyRequest } from 'fastify'
import type { ApiKeyRecord } from '../auth/ApiKeyRecord.ts'
import type { Scope } from '../auth/scopes.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import type { PolicyCharge, PolicyState } from '../limits/LimitPolicy.ts'
import type { PlanLimits } from '../limits/plans.ts'
import type { RouteWeight } from '../limits/routeUnits.ts'

/** How one gateway route is authorised, weighed and checked. */
export type GatewayRouteConfig = {
  /** The route's identity (a cursor is tied to it): `tokens.list`, `wallets.vesting`, … */
  operation: string
  scope: Scope
  weight: RouteWeight
  /** Units when they depend on more than `limit` (`/config`). */
  units?: (request: FastifyRequest) => number
  /** The route's default page size, when it pages (checked against the plan's largest page). */
  defaultLimit?: number
  /** Safety ceilings this request is also charged to (spec §8), besides the plan's policies. */
  ceilings?: (request: FastifyRequest, deps: GatewayDependencies) => PolicyCharge[]
  /** Checks that need more than the schema (combinations, supported chain, cursor), before the limiter. */
  validate?: (request: FastifyRequest, deps: GatewayDependencies) => void | Promise<void>
  /** Parameters that are not accepted but are known: why, answered `incompatible_parameters`. */
  retiredParameters?: Record<string, { reason: string; suggestedEndpoint?: string }>
  /**
   * `Idempotency-Key` on this route (spec §4 rule 1, §8): `required` where a request creates
   * off-chain work (launch and metadata-document prepare), `optional` on the other prepare routes.
   */
  idempotency?: 'required' | 'optional'
  /** A deprecated combined form (spec §9): the focused route it maps to for this request. */
  deprecated?: { successor: (request: FastifyRequest) => string | undefined }
}

/** What the gateway learned about a request on its way through the hooks. */
export type GatewayRequestState = {
  source: string
  key?: ApiKeyRecord
  limits?: PlanLimits
  /** The plan policies' states after this request (for the rate-limit headers). */
  states?: PolicyState[]
  units: number
  release?: () => Promise<void>
  /** Set by a route's `validate` for its handler (a decoded cursor, the chain). */
  locals: Record<string, unknown>
}

declare module 'fastify' {
  interface FastifyContextConfig {
    gateway?: GatewayRouteConfig
  }
  interface FastifyRequest {
    gw: GatewayRequestState
  }
}
