import type { TransactionReceipt } from 'viem'
import type { Devnet } from '../../src/devnet/startDevnet.ts'
import { type SwapBalances, type SwapBalancesParameters, swapAmounts, swapBalances } from './harnessContracts.ts'
import { type RunConcentratedCasesParameters, runConcentratedCases } from './runConcentratedCases.ts'

export type RunMeasuredConcentratedCasesParameters = Omit<RunConcentratedCasesParameters, 'testClient' | 'subject'> & {
  devnet: Devnet
  poolId: string
  /** Who and what a swap moves (`swapBalances`' custodian, payer, recipient and state call), read before and after each swap. */
  measure: Omit<SwapBalancesParameters, 'devnet'>
  /** Sends one exact-input swap at the extreme price limit; `before` is the reading every case starts from. */
  send: (zeroForOne: boolean, amountIn: bigint, before: SwapBalances) => Promise<Pick<TransactionReceipt, 'status' | 'gasUsed'>>
  /** The pool's tick after a swap, from the reading taken after it (or read apart). */
  tickAfter: (after: SwapBalances) => number | Promise<number>
}

/**
 * `runConcentratedCases` on a pool whose swaps are measured by balances: what the payer lost and the
 * recipient gained between one multicall before the cases and one after each swap, so a venue
 * that reports other amounts than it moves is caught. The suites differ only in how they send a
 * swap and read the tick.
 *
 * @example
 * await runMeasuredConcentratedCases({
 *   devnet, prng, solver, ledger, input, trades: 6, label: 'seed=1 state=0', poolId: input.id,
 *   measure: { pool, token0, token1, payer: harness, recipient, stateCall: { address: pool, abi, functionName: 'slot0' } },
 *   send: (zeroForOne, amountIn) => writeContractAndWait({ devnet, address: harness, abi, functionName: 'swapV3', args: [...] }),
 *   tickAfter: (after) => (after.state as readonly [bigint, number])[1],
 * })
 * // six cases recorded in the ledger, each the solver's simulate beside the balances the swap moved
 */
export async function runMeasuredConcentratedCases({
  devnet,
  poolId,
  measure,
  send,
  tickAfter,
  ...cases
}: RunMeasuredConcentratedCasesParameters): Promise<void> {
  const balancesAt = swapBalances({ devnet, ...measure })
  const before = await balancesAt()
  await runConcentratedCases({
    ...cases,
    testClient: devnet.testClient,
    subject: {
      poolId,
      token0: measure.token0,
      token1: measure.token1,
      balances: async () => before.pool,
      swap: async (zeroForOne, amountIn) => {
        const receipt = await send(zeroForOne, amountIn, before)
        const after = await balancesAt()
        return {
          status: receipt.status,
          ...swapAmounts(before, after, zeroForOne),
          gasUsed: receipt.gasUsed,
          tickAfter: await tickAfter(after),
        }
      },
    },
  })
}
