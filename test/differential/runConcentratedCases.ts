import type { Address, Chain, TestClient, Transport } from 'viem'
import type { ConcentratedState, PoolInput, Solver } from '../../bindings/types.ts'
import { revertToSnapshot } from '../../src/devnet/revertToSnapshot.ts'
import type { ChainOutcome, DifferentialLedger } from './createDifferentialLedger.ts'
import type { Prng } from './createPrng.ts'
import { simulateOutcome } from './simulateOutcome.ts'

/** One swap as the chain executed it. */
export type ExecutedSwap = {
  status: 'success' | 'reverted'
  /** Input actually taken from the payer. */
  amountInUsed: bigint
  /** The recipient's balance change of the output token. */
  amountOut: bigint
  gasUsed: bigint
  tickAfter: number
}

export type ConcentratedSubject = {
  poolId: string
  token0: Address
  token1: Address
  /** The pool's token balances (used only to scale trade sizes). */
  balances: () => Promise<readonly [bigint, bigint]>
  /** Executes an exact-input swap with the extreme price limit, from the state the cases started in. */
  swap: (zeroForOne: boolean, amountIn: bigint) => Promise<ExecutedSwap>
}

export type RunConcentratedCasesParameters = {
  /** The chain the subject lives on: each trade starts from the state the cases were called in. */
  testClient: TestClient<'anvil', Transport, Chain>
  prng: Prng
  solver: Solver | undefined
  ledger: DifferentialLedger
  input: PoolInput
  subject: ConcentratedSubject
  trades: number
  label: string
  /** Largest input the venue can take at all (V4 deltas are int128); default unbounded. */
  maxAmountIn?: bigint
}

/**
 * Runs `trades` random exact-input swaps (alternating direction; dust, pool-sized and deeper than
 * the pool) on one state: solver simulate → chain swap → record, the chain rewound after each.
 *
 * @example
 * await runConcentratedCases({ testClient, prng, solver, ledger, input, subject, trades: 6, label: 'seed=1 state=0' })
 * // six cases recorded in the ledger: the solver's simulate beside the pool's own swap
 */
export async function runConcentratedCases({
  testClient,
  prng,
  solver,
  ledger,
  input,
  subject,
  trades,
  label,
  maxAmountIn,
}: RunConcentratedCasesParameters): Promise<void> {
  let snapshot = await testClient.snapshot()
  const state = input.state as ConcentratedState
  const sqrtP = BigInt(state.sqrtPriceX96)
  const [bal0, bal1] = await subject.balances()
  const initialized = state.ticks.map(([t]) => t)
  // The reader's tick list must be self-consistent: nets sum to zero, and the active liquidity is
  // the sum of the nets at or below the current tick.
  const nets = state.ticks.map(([, net]) => BigInt(net))
  if (nets.reduce((a, b) => a + b, 0n) !== 0n) throw new Error(`${label}: liquidityNet does not sum to 0`)
  const active = state.ticks.filter(([t]) => t <= state.tick).reduce((a, [, net]) => a + BigInt(net), 0n)
  if (active !== BigInt(state.liquidity)) {
    throw new Error(`${label}: active liquidity ${state.liquidity} != sum of nets below the tick ${active}`)
  }
  for (let t = 0; t < trades; t++) {
    const zeroForOne = t % 2 === 0
    // Everything the pool could pay out, priced in the input token: trades up to a few times this
    // run out of liquidity.
    const depth = zeroForOne ? bal0 + (bal1 << 192n) / (sqrtP * sqrtP) : bal1 + ((bal0 * sqrtP * sqrtP) >> 192n)
    const scale = depth > 10n ? depth : 10n
    const r = prng.next()
    const drawn =
      r < 0.15 ? prng.logBigint(1n, 10_000n) : r < 0.55 ? prng.logBigint(1n, scale * 4n) : prng.logBigint(scale / 100n + 1n, scale * 3n)
    const amountIn = maxAmountIn !== undefined && drawn > maxAmountIn ? maxAmountIn : drawn
    const tokenIn = zeroForOne ? subject.token0 : subject.token1
    const solverOutcome = await simulateOutcome({ solver, poolId: input.id, tokenIn, amountIn })
    const swap = await subject.swap(zeroForOne, amountIn)
    const chain: ChainOutcome =
      swap.status === 'reverted'
        ? { kind: 'reverted' }
        : swap.amountInUsed === amountIn
          ? { kind: 'filled', amountOut: swap.amountOut, gasUsed: swap.gasUsed }
          : { kind: 'partial', amountInUsed: swap.amountInUsed, amountOut: swap.amountOut, gasUsed: swap.gasUsed }
    const [lo, hi] = zeroForOne ? [swap.tickAfter, state.tick] : [state.tick, swap.tickAfter]
    const chainCrossings =
      swap.status === 'success' ? initialized.filter((x) => (zeroForOne ? x > lo && x <= hi : x > lo && x <= hi)).length : 0
    ledger.record({
      label: `${label} trade=${t} pool=${input.id} zeroForOne=${zeroForOne}`,
      amountIn,
      chain,
      solver: solverOutcome,
      chainCrossings,
    })
    snapshot = await revertToSnapshot({ testClient, id: snapshot })
  }
}
