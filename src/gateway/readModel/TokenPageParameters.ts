import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** What a page of one token's rows is served from: the request (its cursor), the token and the page size. */
export type TokenPageParameters = {
  request: FastifyRequest
  deps: GatewayDependencies
  /** The route the page's cursors are tied to. */
  route: string
  /** The filter set the page's cursors are tied to. */
  filters: Record<string, unknown>
  chainId: number
  token: string
  limit: number
}
