import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** What any page is served from: the request (its cursor), the route and filters its cursors are tied to, the page size. */
export type PageParameters = {
  request: FastifyRequest
  deps: GatewayDependencies
  /** The route the page's cursors are tied to. */
  route: string
  /** The filter set the page's cursors are tied to. */
  filters: Record<string, unknown>
  limit: number
}

/** A page of one token's rows. */
export type TokenPageParameters = PageParameters & { chainId: number; token: string }

/** A page of one wallet's positions, on one chain or all. */
export type WalletPageParameters = PageParameters & { wallet: string; chainId?: number }
