import { type Address, getAddress } from 'viem'
import type { QuoteRequest } from '../quote/quoteTypes.ts'
import { isNativeSentinel } from '../quote/isNativeSentinel.ts'
import type { IntegratorFee, UpstreamTrade } from './UpstreamAdapter.ts'
import type { UpstreamContext } from './UpstreamContext.ts'
import { UpstreamError } from './UpstreamError.ts'

const NATIVE: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export type PreparedUpstreamRequest = {
  /** When the request's budget ends (ms, context clock): every call is aborted then. */
  deadline: number
  budgetMs: number
  /** The trade for `amountIn` of the request's pair, as the upstreams are asked for it. */
  trade: (amountIn: bigint) => UpstreamTrade
  /** tokenIn and tokenOut are one asset (the same token, or a wrap): nothing to quote. */
  sameAsset: boolean
  gasPriceWei: bigint
  /** The gas price could be read (else it is 0 and every net figure is gross). */
  gasPriceKnown: boolean
  /** The caller's integrator fee, carried by every trade (absent when `feeBps` is 0). */
  fee?: IntegratorFee
}

/**
 * The parts of a /quote/compare or /quote/split request every source shares: the deadline
 * (`timeBudgetMs`, else `UPSTREAM_TIME_BUDGET_MS`, from now), the pair as the upstreams write it
 * (native sentinels as 0xEeee…EEeE, checksummed), our gas price, token decimals read once and
 * only when an upstream needs them, and the caller's integrator fee (`feeBps` for `feeRecipient`,
 * the recipient the caller's key resolves to, as our own quote pays it), which every upstream is
 * asked to charge in its own parameters.
 *
 * @example
 * const prepared = await prepareUpstreamRequest({ ctx, request, feeRecipient })
 * // → { deadline: now + timeBudgetMs (default 1500), budgetMs, trade(amountIn), sameAsset, gasPriceWei, … }
 * await endpoint.quote('price', prepared.trade(1_000_000n), prepared.deadline)
 */
export async function prepareUpstreamRequest({
  ctx,
  request,
  feeRecipient,
}: {
  ctx: UpstreamContext
  request: QuoteRequest
  feeRecipient?: Address
}): Promise<PreparedUpstreamRequest> {
  const feeBps = request.feeBps ?? 0
  // The routes resolve the recipient (or answer 400) before this: a fee without one is our bug.
  if (feeBps > 0 && !feeRecipient)
    throw new RangeError("prepareUpstreamRequest: feeBps > 0 needs the fee recipient the caller's key resolves to")
  const fee: IntegratorFee | undefined = feeBps > 0 ? { bps: feeBps, recipient: getAddress(feeRecipient!) } : undefined
  const start = ctx.now()
  const budgetMs = request.timeBudgetMs ?? ctx.defaultBudgetMs
  const deadline = start + budgetMs
  const tokenIn = isNativeSentinel(request.tokenIn) ? NATIVE : getAddress(request.tokenIn)
  const tokenOut = isNativeSentinel(request.tokenOut) ? NATIVE : getAddress(request.tokenOut)
  const local = (token: Address) => (token === NATIVE ? getAddress(ctx.weth) : token)
  const sameAsset = local(tokenIn) === local(tokenOut)
  let gasPriceWei = 0n
  let gasPriceKnown = false
  try {
    gasPriceWei = await ctx.gasPriceWei()
    gasPriceKnown = true
  } catch {
    // The chain did not answer: upstreams route at their own gas price, and nets are gross.
  }
  let decimals: Promise<{ tokenIn: number; tokenOut: number }> | undefined
  const readDecimals = () => {
    decimals ??= Promise.all([tokenIn === NATIVE ? 18 : ctx.decimalsOf(tokenIn), tokenOut === NATIVE ? 18 : ctx.decimalsOf(tokenOut)]).then(
      ([a, b]) => ({ tokenIn: a, tokenOut: b }),
      (error: unknown) => {
        throw new UpstreamError('unsupported', 'token decimals (which this API needs) could not be read from the chain', { cause: error })
      },
    )
    return decimals
  }
  return {
    deadline,
    budgetMs,
    sameAsset,
    gasPriceWei,
    gasPriceKnown,
    fee,
    trade: (amountIn) => ({
      chainId: ctx.chainId,
      tokenIn,
      tokenOut,
      amountIn,
      slippageBps: request.slippageBps,
      taker: request.taker ? getAddress(request.taker) : undefined,
      gasPriceWei,
      decimals: readDecimals,
      fee,
    }),
  }
}
