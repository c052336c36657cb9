import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveFeeClaims } from '../../readModel/serveFeeClaims.ts'
import { serveVesting } from '../../readModel/serveVesting.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { TRADES_WEIGHT } from '../tokens/tokenTradesRoute.ts'
import { LIVE_PROBLEMS } from './walletFeeClaimsRoute.ts'
import { readWalletList, type WalletListRequest, walletPageQuery, walletPathParams } from './walletQuery.ts'

type Kind = 'fee' | 'vesting'

/**
 * `GET /wallets/{address}/claims?kind=`: the deprecated combined form (spec §9): `kind=fee` is
 * `/fee-claims`, `kind=vesting` is `/vesting`, same pages and units, with `Deprecation` and a
 * `Link` to the focused route.
 *
 * @example
 * registerWalletClaimsRoute(fastify, deps)
 * // GET /wallets/:address/claims?kind=fee now answers /fee-claims' page, with Deprecation and Link
 */
export function registerWalletClaimsRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/wallets/:address/claims',
    {
      schema: {
        summary: "A wallet's fee or vesting positions (deprecated: use /fee-claims or /vesting)",
        operationId: 'listWalletClaims',
        deprecated: true,
        params: walletPathParams,
        querystring: Type.Object(
          { kind: Type.Union([Type.Literal('fee'), Type.Literal('vesting')]), ...walletPageQuery },
          { additionalProperties: false },
        ),
        response: gatewayResponses({
          ok: Type.Ref('ClaimList'),
          description: 'A page of fee or vesting positions',
          problems: [...KEYED_PROBLEMS, 409, 422, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'wallets.claims',
          scope: 'wallets:read',
          weight: TRADES_WEIGHT,
          defaultLimit: 25,
          validate: (request) =>
            void readWalletList({ request, deps, route: 'wallets.claims', extraFilters: { kind: (request.query as { kind: Kind }).kind } }),
          deprecated: {
            successor: (request) => {
              const { address } = request.params as { address: string }
              return `/wallets/${encodeURIComponent(address)}/${(request.query as { kind?: Kind } | undefined)?.kind === 'vesting' ? 'vesting' : 'fee-claims'}`
            },
          },
        },
      },
    },
    async (request) => {
      const serve = (request.query as { kind: Kind }).kind === 'fee' ? serveFeeClaims : serveVesting
      return serve({ request, deps, route: 'wallets.claims', ...(request.gw.locals.list as WalletListRequest) })
    },
  )
}
