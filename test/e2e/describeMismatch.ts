import type { Log } from 'viem'
import type { QuoteRoutePlan } from '../../src/quote/quoteTypes.ts'

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

export type DescribeMismatchParameters = {
  plan: QuoteRoutePlan
  /** The executed transaction's receipt logs. */
  logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[]
  /** A token's symbol for the report (its address when unknown). */
  symbolOf: (address: string) => string
}

/**
 * What a plan that did not pay its `expectedAmountOut` said and what the chain did, side by side: each
 * route's legs (pool, pair, input, minimum) and every ERC-20 Transfer of the transaction in order,
 * so the leg that paid other than planned is the first transfer out of a pool that differs from the
 * next leg's input (or, for a route's last leg, from the route's share of the output).
 *
 * @example
 * console.log(describeMismatch({ plan, logs: receipt.logs, symbolOf }).join('\n'))
 * // route 0: UNIV3 0xf0fe… DEGEN->WETH in 6140… minOut … | …
 * // transfer WETH 0xf0fe… -> 0x9d44… 20283418273866704987
 */
export function describeMismatch({ plan, logs, symbolOf }: DescribeMismatchParameters): string[] {
  const routes = plan.routes.map(
    (route, k) =>
      `route ${k}: ` +
      route.legs
        .map((l) => `${l.dex} ${l.poolId} ${symbolOf(l.tokenIn)}->${symbolOf(l.tokenOut)} in ${l.amountIn} minOut ${l.minOut}`)
        .join(' | '),
  )
  const transfers = logs
    .filter((l) => l.topics[0] === TRANSFER_TOPIC && l.topics.length === 3)
    .map((l) => `transfer ${symbolOf(l.address)} 0x${l.topics[1]!.slice(26)} -> 0x${l.topics[2]!.slice(26)} ${BigInt(l.data)}`)
  return [...routes, ...transfers]
}
