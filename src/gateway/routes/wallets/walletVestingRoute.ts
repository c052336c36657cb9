import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveVesting } from '../../readModel/serveVesting.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { TRADES_WEIGHT } from '../tokens/tokenTradesRoute.ts'
import { LIVE_PROBLEMS } from './walletFeeClaimsRoute.ts'
import { readWalletList, type WalletListRequest, walletPageQuery, walletPathParams } from './walletQuery.ts'

/**
 * `GET /wallets/{address}/vesting`: the wallet's vesting positions with what has vested and what
 * can be claimed now (live); 3 units per 25 rows.
 *
 * @example
 * registerWalletVestingRoute(fastify, deps)
 * // GET /wallets/:address/vesting now answers { data: [positions with vested and claimable], page, meta }
 */
export function registerWalletVestingRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/wallets/:address/vesting',
    {
      schema: {
        summary: "A wallet's vesting positions",
        operationId: 'listWalletVesting',
        params: walletPathParams,
        querystring: Type.Object(walletPageQuery, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('VestingList'),
          description: 'A page of vesting positions, amounts read live',
          problems: [...KEYED_PROBLEMS, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'wallets.vesting',
          scope: 'wallets:read',
          weight: TRADES_WEIGHT,
          defaultLimit: 25,
          validate: (request) => void readWalletList({ request, deps, route: 'wallets.vesting' }),
        },
      },
    },
    async (request) => serveVesting({ request, deps, route: 'wallets.vesting', ...(request.gw.locals.list as WalletListRequest) }),
  )
}
