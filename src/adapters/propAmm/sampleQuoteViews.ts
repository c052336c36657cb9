import type { Address, PublicClient } from 'viem'
import type { PoolInput } from '../../../bindings/types.ts'
import { propAmmCurveOf } from './propAmmCurveOf.ts'
import { type PropAmmQuoteAsk, propAmmQuotesAsExecutor } from './propAmmQuotesAsExecutor.ts'
import { propAmmSampleAmounts } from './propAmmSampleAmounts.ts'

export type SampleQuoteViewsParameters = {
  client: PublicClient
  executor: Address
  blockNumber: bigint
  /** The venue's two tokens in its own order, their decimals and its inventory of each. */
  tokens: readonly [Address, Address]
  decimals: readonly [number, number]
  reserves: readonly [bigint, bigint]
  /** Largest input each way (FELTIR's remaining limit), by the venue's token order. */
  maxIn?: readonly [bigint, bigint]
  /** The quote to ask for `amountIn` of `tokens[i]` into the other token. */
  ask: (i: 0 | 1, amountIn: bigint) => PropAmmQuoteAsk
  marginBps: number
  /** The input sizes each way, ascending (default `propAmmSampleAmounts`). */
  amountsOf?: (i: 0 | 1) => bigint[]
}

/**
 * A venue priced by its own quote view, as the solver's `sampled` state: the view asked at
 * `propAmmSampleAmounts`' sizes both ways in one `aggregate3` call as the executor, each direction's
 * curve cut where it stops paying (`propAmmCurveOf`), the tokens sorted as the solver lists them.
 * `{ problem }` where the venue cannot be priced (not monotone, quotes nothing either way).
 *
 * @example
 * const sampled = await sampleQuoteViews({ client, executor, blockNumber, tokens, decimals, reserves, ask, marginBps: 10 })
 * // → { tokens: [token0, token1], state: { model: 'sampled', marginBps: 10, zeroForOne: [[in, out], …], oneForZero: […] } }
 */
export async function sampleQuoteViews({
  client,
  executor,
  blockNumber,
  tokens,
  decimals,
  reserves,
  maxIn,
  ask,
  marginBps,
  amountsOf,
}: SampleQuoteViewsParameters): Promise<{ tokens: [Address, Address]; state: PoolInput['state'] } | { problem: string }> {
  const directions = ([0, 1] as const).map((i) => {
    const amounts = amountsOf?.(i) ?? propAmmSampleAmounts({ decimals: decimals[i], reserveIn: reserves[i], maxIn: maxIn?.[i] })
    return { amounts, asks: amounts.map((amountIn) => ask(i, amountIn)) }
  })
  const { amounts: answers } = await propAmmQuotesAsExecutor({
    client,
    executor,
    asks: directions.flatMap((d) => d.asks),
    block: { blockNumber },
  })
  let at = 0
  const curves = directions.map(({ amounts }) => propAmmCurveOf(amounts.map((amountIn) => ({ amountIn, amountOut: answers[at++] }))))
  for (const curve of curves) if ('problem' in curve) return { problem: curve.problem }
  const [forward, backward] = curves.map((c) => ('samples' in c ? c.samples : []))
  if (forward.length === 0 && backward.length === 0) return { problem: 'quotes nothing either way' }
  // The solver's pool lists token0 < token1; the venue's order may be the other.
  const sorted = BigInt(tokens[0]) < BigInt(tokens[1])
  const text = (samples: [bigint, bigint][]) => samples.map(([i, o]) => [i.toString(), o.toString()] as [string, string])
  return {
    tokens: sorted ? [tokens[0], tokens[1]] : [tokens[1], tokens[0]],
    state: {
      model: 'sampled',
      marginBps,
      zeroForOne: text(sorted ? forward : backward),
      oneForZero: text(sorted ? backward : forward),
    },
  }
}
