import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { presentTokenDetail } from '../../readModel/presentTokenDetail.ts'
import { readChainStates } from '../../readModel/readChainStates.ts'
import { readTokenRow } from '../../readModel/readTokenRow.ts'
import { gatewayResponses, KEYED_PROBLEMS } from '../routeSchemaParts.ts'
import { readTokenPath, tokenPathParams } from '../tokenPath.ts'

/**
 * `GET /tokens/{chain}/{token}`: one launched token in full; 2 units. A token this launchpad
 * did not launch is `not_found`.
 *
 * @example
 * registerTokenDetailRoute(fastify, deps)
 * // GET /tokens/:chain/:token now answers the token in full; not_found for one not launched here
 */
export function registerTokenDetailRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  fastify.get(
    '/tokens/:chain/:token',
    {
      schema: {
        summary: 'Get a token',
        operationId: 'getToken',
        params: tokenPathParams,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: gatewayResponses({
          ok: Type.Ref('TokenDetailResponse'),
          description: 'The token',
          problems: [...KEYED_PROBLEMS, 404, 422],
        }),
      },
      config: {
        gateway: {
          operation: 'tokens.detail',
          scope: 'tokens:read',
          weight: { base: 2 },
          validate: (request) => {
            request.gw.locals.path = readTokenPath({ request, deps })
          },
        },
      },
    },
    async (request) => {
      const { chainId, token } = request.gw.locals.path as { chainId: number; token: string }
      const row = await readTokenRow({ db: deps.db, chainId, token })
      const states = await readChainStates({ db: deps.db })
      const state = states.get(chainId)
      return {
        data: await presentTokenDetail({ db: deps.db, row, state }),
        meta: { generated_at: new Date(deps.now()).toISOString(), ...(state ? { observed_block: state.block } : {}) },
      }
    },
  )
}
