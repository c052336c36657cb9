import { type Address, serializeTransaction } from 'viem'
import type { SolverPlan } from '../../bindings/types.ts'
import { l1FeeWei } from '../chains/opStack/l1FeeWei.ts'
import type { GasEstimate } from '../http/schemas/routePlan.ts'
import type { MarketState } from '../market/MarketState.ts'
import { encodeSwapExactIn } from '../router/encodeSwapExactIn.ts'
import { estimateRouterOverheadGas } from './estimateRouterOverheadGas.ts'
import type { QuoteRoutePlan } from './quoteTypes.ts'

/** Stand-ins for the parts of the calldata a quote does not know (recipient, fee recipient, deadline). */
const STAND_IN_ADDRESS: Address = '0x1111111111111111111111111111111111111111'
const STAND_IN_DEADLINE = 2_000_000_000n
/** A sender's nonce as the L1 fee's transaction size counts it (a few hundred: two bytes). */
const STAND_IN_NONCE = 300

/** The L1 fee parameters of the plan's block (`MarketState.feesAt`), when the chain has an L1 fee. */
type L1FeeParameters = NonNullable<ReturnType<NonNullable<MarketState['feesAt']>>>['l1']

export type EstimatePlanGasParameters = {
  /** The plan as `buildRoutePlan` made it (its own `gasEstimate` is not read). */
  plan: QuoteRoutePlan
  /** The solver's plan: its legs' gas, which includes each leg's L1 calldata fee in L2 gas. */
  solved: Pick<SolverPlan, 'gasUnits' | 'l1GasPerLeg'>
  /** The recipient, when the request named one (`taker`); a stand-in otherwise. */
  taker?: string
  router: Address
  chainId: number
  gasPriceWei: bigint
  l1?: L1FeeParameters
}

/**
 * The plan's gas: L2 execution gas (the solver's legs less their L1 share, plus the router's
 * overhead measured on the plan's real calldata, with stand-ins for what a quote does not know)
 * and its cost at `gasPriceWei`, plus the L1 data fee of the whole transaction when `l1` is given.
 *
 * @example
 * const { gasUnits, gasCostWei } = estimatePlanGas({ plan, solved, router, chainId: 8453, gasPriceWei: 10_000_000n })
 * // gasUnits >= 21_000; without `l1`, gasCostWei === (BigInt(gasUnits) * 10_000_000n).toString()
 */
export function estimatePlanGas({
  plan,
  solved,
  taker,
  router,
  chainId,
  gasPriceWei,
  l1,
}: EstimatePlanGasParameters): Required<GasEstimate> {
  const { routes, nativeIn, nativeOut, feeBps, amountIn } = plan
  const { data } = encodeSwapExactIn({
    plan,
    recipient: (taker as Address | undefined) ?? STAND_IN_ADDRESS,
    feeRecipient: feeBps > 0 ? STAND_IN_ADDRESS : undefined,
    deadline: STAND_IN_DEADLINE,
  })
  const legs = routes.reduce((count, route) => count + route.legs.length, 0)
  const paysIntegratorFee = BigInt(plan.feeBreakdown.integratorFeeAmount) > 0n
  const overhead = estimateRouterOverheadGas({ data, routes: routes.length, legs, nativeIn, nativeOut, paysIntegratorFee })
  // The solver's gas includes each leg's L1 calldata fee in L2 gas (its objective); the estimate's
  // gasUnits are L2 execution gas alone, and its cost adds the L1 fee of the whole calldata.
  const l2Gas = solved.gasUnits - (solved.l1GasPerLeg ?? 0) * legs
  const gasUnits = Math.max(21_000, l2Gas + overhead)
  const unsignedTx = () =>
    serializeTransaction({
      chainId,
      type: 'eip1559',
      to: router,
      data,
      value: nativeIn ? BigInt(amountIn) : 0n,
      nonce: STAND_IN_NONCE,
      gas: BigInt(gasUnits),
      maxFeePerGas: gasPriceWei,
      maxPriorityFeePerGas: gasPriceWei,
    })
  const l1Fee = l1 ? l1FeeWei({ parameters: l1, unsignedTx: unsignedTx() }) : 0n
  return { gasUnits, gasCostWei: (BigInt(gasUnits) * gasPriceWei + l1Fee).toString() }
}
