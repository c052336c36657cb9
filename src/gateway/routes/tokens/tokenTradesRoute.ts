import type { FastifyInstance } from 'fastify'
import type { GatewayDependencies } from '../../GatewayDependencies.ts'
import { serveTrades } from '../../readModel/serveTrades.ts'
import { registerTokenPageRoute } from './registerTokenPageRoute.ts'

/** Trades and wallet-side lists: 3 units per 25 rows (spec §8). */
export const TRADES_WEIGHT = { base: 3, rowsPerStep: 25 }

/**
 * `GET /tokens/{chain}/{token}/trades`: the token's trades, newest first; 3 units per 25 rows.
 *
 * @example
 * registerTokenTradesRoute(fastify, deps)
 * // GET /tokens/:chain/:token/trades now answers { data: [newest first], page, meta }
 */
export function registerTokenTradesRoute(fastify: FastifyInstance, deps: GatewayDependencies): void {
  registerTokenPageRoute(fastify, deps, {
    list: 'trades',
    summary: "List a token's trades",
    operationId: 'listTokenTrades',
    response: 'TradeList',
    description: 'A page of trades, newest first',
    operation: 'tokens.trades',
    weight: TRADES_WEIGHT,
    serve: serveTrades,
  })
}
