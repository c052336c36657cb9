import type { Address, PublicClient } from 'viem'
import type { SampledPairsState } from '../../bindings/types.ts'
import { propAmmCurveOf } from './propAmm/propAmmCurveOf.ts'
import { propAmmQuotesAsExecutor } from './propAmm/propAmmQuotesAsExecutor.ts'

export type CurveCryptoPairSamplesParameters = {
  client: PublicClient
  executor: Address
  blockNumber: bigint
  /** The pool's address and its coins in its own order (`coins(0)`, `coins(1)`, …). */
  pool: Address
  coins: readonly Address[]
  /** The input sizes selling coin `i`, ascending. */
  amountsOf: (i: number) => bigint[]
  marginBps: number
}

/**
 * A CryptoSwap pool of three coins (tricrypto-ng) as the solver's `sampled` state in its `pairs`
 * form: the pool's own `get_dy(i, j, dx)` asked at `amountsOf(i)` for every ordered pair `i → j`, all
 * in one `aggregate3` call as the executor, each pair's curve cut where it stops paying
 * (`propAmmCurveOf`). The tokens stay in the pool's order (the pairs name them by index). The
 * solver trades such a venue through one ordered pair per plan (docs/solver-wire-format.md).
 * `{ problem }` where the pool cannot be priced (a pair not monotone, or nothing paid at all).
 *
 * @example
 * const sampled = await curveCryptoPairSamples({ client, executor, blockNumber, pool, coins, amountsOf, marginBps: 1 })
 * // → { state: { model: 'sampled', marginBps: 1, pairs: [{ tokenIn: 0, tokenOut: 1, samples: [[in, out], …] }, …] } }
 */
export async function curveCryptoPairSamples({
  client,
  executor,
  blockNumber,
  pool,
  coins,
  amountsOf,
  marginBps,
}: CurveCryptoPairSamplesParameters): Promise<{ state: SampledPairsState } | { problem: string }> {
  const pairs = coins.flatMap((_, i) => coins.map((_, j) => [i, j] as const).filter(([, j]) => j !== i))
  const amounts = coins.map((_, i) => amountsOf(i))
  const asks = pairs.flatMap(([i, j]) =>
    amounts[i].map((amountIn) => ({ dex: 'CURVE' as const, entry: pool, tokenIn: coins[i], tokenOut: coins[j], amountIn, coins })),
  )
  const { amounts: answers } = await propAmmQuotesAsExecutor({ client, executor, asks, block: { blockNumber } })
  let at = 0
  const state: SampledPairsState = { model: 'sampled', marginBps, pairs: [] }
  for (const [i, j] of pairs) {
    const curve = propAmmCurveOf(amounts[i].map((amountIn) => ({ amountIn, amountOut: answers[at++] })))
    if ('problem' in curve) return { problem: `${i} → ${j}: ${curve.problem}` }
    state.pairs.push({ tokenIn: i, tokenOut: j, samples: curve.samples.map(([x, y]) => [x.toString(), y.toString()]) })
  }
  if (state.pairs.every((pair) => pair.samples.length === 0)) return { problem: 'quotes nothing for any pair' }
  return { state }
}
