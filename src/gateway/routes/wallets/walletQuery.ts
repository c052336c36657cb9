import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { readCursor } from '../readCursor.ts'
import { requireChain } from '../requireChain.ts'
import { addressParam, pageQuery } from '../routeSchemaParts.ts'

/** `{address}` of the wallet routes. */
export const walletPathParams = Type.Object({ address: addressParam }, { additionalProperties: false })

/** `limit`, `cursor` and the optional `chain` filter of the wallet lists. */
export const walletPageQuery = {
  limit: Type.Optional(pageQuery.limit),
  cursor: Type.Optional(pageQuery.cursor),
  chain: Type.Optional(Type.Integer({ minimum: 1, maximum: 4_294_967_295, description: 'only this chain' })),
}

/** What a wallet list request asks for, once checked. */
export type WalletListRequest = { wallet: string; chainId?: number; limit: number; filters: Record<string, unknown> }

/**
 * The wallet, chain filter (a served chain, else `unsupported_chain`) and page of a wallet list;
 * its cursor decoded for `route` (`extraFilters` are part of the filter set, like a deprecated
 * route's `kind`). Called in a route's `validate`; the result is kept in `request.gw.locals.list`.
 *
 * @example
 * validate: (request) => readWalletList({ request, deps, route: 'wallets.vesting' })
 * // → { wallet: '<lowercase address>', chainId?, limit, filters: { wallet, chain } }; unsupported_chain for another chain
 */
export function readWalletList({
  request,
  deps,
  route,
  extraFilters = {},
}: {
  request: FastifyRequest
  deps: GatewayDependencies
  route: string
  extraFilters?: Record<string, unknown>
}): WalletListRequest {
  const { address } = request.params as { address: string }
  const q = request.query as { limit?: number; chain?: number }
  if (q.chain !== undefined) requireChain({ deps, chainId: q.chain })
  const wallet = address.toLowerCase()
  const filters = { wallet, chain: q.chain ?? null, ...extraFilters }
  readCursor({ request, deps, route, filters })
  const list = { wallet, chainId: q.chain, limit: q.limit ?? 25, filters }
  request.gw.locals.list = list
  return list
}
