import { Type } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { MarketState } from '../../market/MarketState.ts'
import { MarketPoolParams, MarketPoolQuery } from '../schemas/marketPool.ts'
import { authenticatedErrorResponses, errorResponse } from './responses.ts'

/**
 * `GET /market/pools/{poolId}?blockNumber=N`: the pool as the solver priced it at block N (default
 * the market's block) and the block that state was read at. 404 when the pool was not in the market
 * then, or N is older than the versions kept; asked at the market's block, the 404 of a pool the
 * market left out gives the skip list's reason (a prop AMM paused, stale or not monotone: which
 * block, and why). Authenticated and counted like every call.
 *
 * @example
 * registerMarketPoolRoute(fastify, market)
 * // GET /market/pools/:poolId now answers the pool's state and block, or 404 with { error }
 */
export function registerMarketPoolRoute(fastify: FastifyInstance, market: Pick<MarketState, 'poolAt' | 'freshness' | 'skipped'>): void {
  fastify.get(
    '/market/pools/:poolId',
    {
      schema: {
        summary: "One pool as the solver priced it at a recent block (diagnosis: set it beside the chain's state at a plan's block)",
        operationId: 'marketPool',
        params: MarketPoolParams,
        querystring: MarketPoolQuery,
        response: {
          200: { ...Type.Ref('MarketPoolResponse'), description: "The pool's state in the solver at that block" },
          ...withoutBodyErrors(
            authenticatedErrorResponses({ badRequest: 'A pool id or block number the schema refuses (`{error}` names it)' }),
          ),
          404: errorResponse(
            "The pool was not in the market at that block, or the block is older than the versions kept; a pool the market leaves out now: the skip list's reason",
          ),
        },
      },
    },
    async (request, reply) => {
      const { poolId } = request.params as { poolId: string }
      const { blockNumber: asked } = request.query as { blockNumber?: string }
      const blockNumber = asked === undefined ? market.freshness().blockNumber : BigInt(asked)
      const version = blockNumber === undefined ? undefined : market.poolAt(poolId, blockNumber)
      if (!version?.snapshot) {
        const id = poolId.toLowerCase()
        const skipped = asked === undefined ? market.skipped().find((s) => s.id === id) : undefined
        return reply.code(404).send({
          error: `pool ${id} is not in the market${asked === undefined ? '' : ` at block ${asked}, or that block is older than the versions kept`}${skipped ? `: ${skipped.reason}` : ''}`,
        })
      }
      const { input, ref } = version.snapshot
      return {
        poolId: input.id,
        dex: input.dex,
        blockNumber: Number(blockNumber),
        readAtBlock: Number(version.readAtBlock),
        tokens: input.tokens,
        ref,
        state: input.state,
      }
    },
  )
}

/** A GET has no body: the body's 413 and 415 do not apply. */
function withoutBodyErrors<T extends Record<number, unknown>>({
  413: _tooLarge,
  415: _notJson,
  ...responses
}: T & { 413?: unknown; 415?: unknown }) {
  return responses
}
