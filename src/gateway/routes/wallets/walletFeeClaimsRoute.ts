import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveFeeClaims } from '../../readModel/serveFeeClaims.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { TRADES_WEIGHT } from '../tokens/tokenTradesRoute.ts'
import { readWalletList, type WalletListRequest, walletPageQuery, walletPathParams } from './walletQuery.ts'

/** Chain reads failing: the mapped problems of a live route. */
export const LIVE_PROBLEMS = [502, 503, 504] as const

/**
 * `GET /wallets/{address}/fee-claims`: the wallet's fee positions with what each can claim now
 * (live); 3 units per 25 rows.
 *
 * @example
 * registerWalletFeeClaimsRoute(fastify, deps)
 * // GET /wallets/:address/fee-claims now answers { data: [positions with what each can claim now], page, meta }
 */
export function registerWalletFeeClaimsRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/wallets/:address/fee-claims',
    {
      schema: {
        summary: "A wallet's fee claim positions",
        operationId: 'listWalletFeeClaims',
        params: walletPathParams,
        querystring: Type.Object(walletPageQuery, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('FeeClaimList'),
          description: 'A page of fee positions, claimable read live',
          problems: [...KEYED_PROBLEMS, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'wallets.fee_claims',
          scope: 'wallets:read',
          weight: TRADES_WEIGHT,
          defaultLimit: 25,
          validate: (request) => void readWalletList({ request, deps, route: 'wallets.fee_claims' }),
        },
      },
    },
    async (request) => serveFeeClaims({ request, deps, route: 'wallets.fee_claims', ...(request.gw.locals.list as WalletListRequest) }),
  )
}
