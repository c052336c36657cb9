import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { countWalletRows, liveRowsOf, summarizeWallet } from '../../readModel/summarizeWallet.ts'
import { routeUnits } from '../../limits/routeUnits.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { LIVE_PROBLEMS } from './walletFeeClaimsRoute.ts'
import { walletPathParams } from './walletQuery.ts'

/**
 * `GET /wallets/{address}/summary`: the wallet at a glance (launches, holdings, claimable fees
 * and vesting, live). Priced for what it reads live: 2 units per 25 rows (holdings, fee and
 * vesting positions, at most 25 of each: `SUMMARY_ROWS_PER_KIND`), so 2 to 6 units; the rows are
 * counted before the limiter.
 *
 * @example
 * registerWalletSummaryRoute(fastify, deps)
 * // GET /wallets/:address/summary now answers the wallet's holdings, fee and vesting positions (2 to 6 units)
 */
export function registerWalletSummaryRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/wallets/:address/summary',
    {
      schema: {
        summary: "A wallet's summary",
        operationId: 'getWalletSummary',
        params: walletPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('WalletSummaryResponse'),
          description: 'The wallet at a glance, live values at as_of_block',
          problems: [...KEYED_PROBLEMS, ...LIVE_PROBLEMS],
        }),
      },
      config: {
        gateway: {
          operation: 'wallets.summary',
          scope: 'wallets:read',
          weight: { base: 2, rowsPerStep: 25 },
          validate: async (request, d) => {
            request.gw.locals.liveRows = liveRowsOf(
              await countWalletRows({ deps: d, wallet: (request.params as { address: string }).address.toLowerCase() }),
            )
          },
          units: (request) =>
            routeUnits({ weight: { base: 2, rowsPerStep: 25 }, limit: Math.max(1, request.gw.locals.liveRows as number) }),
        },
      },
    },
    async (request) => {
      const { data, asOfBlock } = await summarizeWallet({ deps, wallet: (request.params as { address: string }).address.toLowerCase() })
      return {
        data,
        meta: { generated_at: new Date(deps.now()).toISOString(), ...(asOfBlock !== undefined ? { as_of_block: asOfBlock } : {}) },
      }
    },
  )
}
