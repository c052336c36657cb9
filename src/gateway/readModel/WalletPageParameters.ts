import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../GatewayDependencies.ts'

/** What a page of one wallet's positions is served from: the request (its cursor), the wallet, an optional chain and the page size. */
export type WalletPageParameters = {
  request: FastifyRequest
  deps: GatewayDependencies
  /** The route the page's cursors are tied to. */
  route: string
  /** The filter set the page's cursors are tied to. */
  filters: Record<string, unknown>
  wallet: string
  chainId?: number
  limit: number
}
