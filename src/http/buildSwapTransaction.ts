import { type Address, getAddress } from 'viem'
import type { QuoteRoutePlan } from '../quote/quoteTypes.ts'
import { encodeSwapExactIn } from '../router/encodeSwapExactIn.ts'
import type { PermitPayload } from '../router/routePlanTypes.ts'
import { BadRequestError } from './errors.ts'

export type BuildSwapTransactionParameters = {
  plan: QuoteRoutePlan
  router: Address
  /** The wrapped native token (the router wraps into / unwraps from it). */
  weth: Address
  /** Receives the output (spec: `user`). */
  user: Address
  /** Spec rule 6: when present, overrides `plan.nativeIn`. */
  useNativeIn?: boolean
  /** Spec rule 6: when present, overrides `plan.nativeOut`. */
  unwrapNativeOut?: boolean
  permit?: PermitPayload
  /** Receives the integrator fee; required when the plan has a fee. */
  feeRecipient?: Address
  /** Unix seconds after which the router reverts. */
  deadlineSec: bigint
}

export type BuildSwapTransactionReturnType = { to: Address; data: `0x${string}`; value: bigint }

/**
 * The `/submit` payload: `swapExactIn` (or `swapExactInWithPermit`) calldata for `plan`, paying
 * `user`. The native flags follow spec rule 6 (the request's flag wins over the plan's), and a
 * combination the router cannot execute is refused with a 400 naming the field:
 * - `useNativeIn: true` needs the trade to start at the wrapped native token (the router wraps
 *   `msg.value` into it); `false` on a native-in plan means the caller pays WETH instead of ETH.
 * - `unwrapNativeOut: true` needs the trade to end at the wrapped native token; `false` on a
 *   native-out plan pays WETH instead of ETH.
 * - a permit with a native input (nothing is pulled, so nothing to permit).
 * - a wrap or unwrap plan (no routes) turned into WETH to WETH or ETH to ETH by the flags.
 * - `user` equal to the router (the router refuses to pay itself: the output would be stranded).
 *
 * @example
 * const { to, data, value } = buildSwapTransaction({ plan, router, weth, user, deadlineSec: BigInt(Math.floor(Date.now() / 1000) + 300) })
 * // → { to: router, data: swapExactIn calldata, value: 0n (amountIn when nativeIn) }
 */
export function buildSwapTransaction({
  plan,
  router,
  weth,
  user,
  useNativeIn,
  unwrapNativeOut,
  permit,
  feeRecipient,
  deadlineSec,
}: BuildSwapTransactionParameters): BuildSwapTransactionReturnType {
  const wethAddress = getAddress(weth)
  if (getAddress(user) === getAddress(router))
    throw new BadRequestError({ field: 'user', message: 'must not be the router itself (the router refuses to pay itself)' })
  const legs = plan.routes[0]?.legs
  // A plan of no routes is a wrap or an unwrap alone (one native end, WETH on the other).
  const wrapOnly = plan.routes.length === 0 && plan.nativeIn !== plan.nativeOut
  if (!legs?.length && !wrapOnly) throw new BadRequestError({ field: 'quoteId', message: 'the quote has no route' })
  // The tokens the legs trade: WETH where the plan names the native sentinel (both, for a wrap or unwrap).
  const legTokenIn = legs?.length ? getAddress(legs[0].tokenIn) : wethAddress
  const legTokenOut = legs?.length ? getAddress(legs[legs.length - 1].tokenOut) : wethAddress
  const nativeIn = useNativeIn ?? plan.nativeIn
  const nativeOut = unwrapNativeOut ?? plan.nativeOut
  if (nativeIn && legTokenIn !== wethAddress) {
    throw new BadRequestError({
      field: 'useNativeIn',
      message: `the router can only wrap the native asset into ${wethAddress}; this quote starts at ${legTokenIn}`,
    })
  }
  if (nativeOut && legTokenOut !== wethAddress) {
    throw new BadRequestError({
      field: 'unwrapNativeOut',
      message: `the router can only unwrap ${wethAddress}; this quote ends at ${legTokenOut}`,
    })
  }
  if (permit && nativeIn) throw new BadRequestError({ field: 'permit', message: 'a native-in swap pulls no token, so it takes no permit' })
  // A wrap or unwrap plan is the router's own deposit or withdraw: it needs exactly one native end.
  if (wrapOnly && nativeIn === nativeOut)
    throw new BadRequestError({
      field: useNativeIn !== undefined ? 'useNativeIn' : 'unwrapNativeOut',
      message: `this quote is a ${plan.nativeIn ? 'wrap of ETH into' : 'unwrap of'} ${wethAddress}: the router needs exactly one native end (${nativeIn ? 'both' : 'neither'} asked)`,
    })
  const feeBps = plan.feeBps ?? 0
  if (feeBps > 0 && !feeRecipient)
    throw new BadRequestError({ field: 'feeBps', message: 'this server has no fee recipient configured (FEE_RECIPIENT)' })

  const { data, value } = encodeSwapExactIn({
    // The router's tokenIn/tokenOut are the legs' tokens whatever the flags say.
    plan: { ...plan, tokenIn: legTokenIn, tokenOut: legTokenOut },
    recipient: user,
    feeBps,
    feeRecipient: feeBps > 0 ? feeRecipient : undefined,
    nativeIn,
    nativeOut,
    deadline: deadlineSec,
    permit,
  })
  return { to: getAddress(router), data, value }
}
