import { type Address, getAddress } from 'viem'
import { InvalidQuoteRequestError, NoRouteError, QuoteMarketStaleError } from '../../quote/errors.ts'
import type { QuoteRoutePlan } from '../../quote/quoteTypes.ts'
import type { GatewayChain } from '../GatewayChain.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'

/** The gateway's names of the quote service's fields (a refused field is named as the caller sent it). */
const FIELD_NAMES: Record<string, string> = {
  tokenIn: 'token_in',
  tokenOut: 'token_out',
  amountIn: 'amount_in',
  slippageBps: 'slippage_bps',
  chainId: 'chain_id',
}

/**
 * A route plan from the swap service's own solver (the quote service of the same process, the
 * chain's `swaps.quote`), its failures in the gateway's codes: no route or no path that absorbs
 * the amount is `quote_unavailable`; a market snapshot too old to promise anything is
 * `temporarily_unavailable`; a request the quote service refuses is `invalid_parameter` on the
 * field.
 *
 * @example
 * const plan = await quoteSwap({ chain, tokenIn, tokenOut, amountIn: 10n ** 18n, slippageBps: 50 })
 * // → the quote service's route plan for 1 token in; GatewayProblem 'quote_unavailable' when nothing fills it
 */
export async function quoteSwap({
  chain,
  tokenIn,
  tokenOut,
  amountIn,
  slippageBps,
}: {
  chain: GatewayChain
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  slippageBps: number
}): Promise<QuoteRoutePlan> {
  const swaps = chain.swaps!
  try {
    return await swaps.quote({
      chainId: chain.chainId,
      tokenIn: getAddress(tokenIn),
      tokenOut: getAddress(tokenOut),
      amountIn: amountIn.toString(),
      slippageBps,
    })
  } catch (error) {
    if (error instanceof NoRouteError)
      throw new GatewayProblem('quote_unavailable', {
        detail: 'No safe executable route for this pair and amount in the current pool state.',
        chainId: chain.chainId,
      })
    if (error instanceof QuoteMarketStaleError)
      throw new GatewayProblem('temporarily_unavailable', {
        detail: "The swap market's view of the chain is not current; retry shortly.",
        retryAfterSec: 1,
      })
    if (error instanceof InvalidQuoteRequestError) {
      const name = FIELD_NAMES[error.field] ?? error.field
      throw new GatewayProblem('invalid_parameter', {
        detail: `${name}: ${error.message.slice(error.field.length + 2)}`,
        invalidParameters: [{ name, in: 'body', reason: error.message.slice(error.field.length + 2) }],
      })
    }
    throw error
  }
}
