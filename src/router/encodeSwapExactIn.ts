import { type Address, encodeFunctionData, getAddress, type Hex, isAddress } from 'viem'
import { encodeRouterLeg, type RouterLeg } from './encodeRouterLeg.ts'
import { RouterEncodingError } from './RouterEncodingError.ts'
import type { PermitPayload, RoutePlan } from './routePlanTypes.ts'
import { swapRouterAbi } from './swapRouterAbi.ts'

export type EncodeSwapExactInParameters = {
  plan: RoutePlan
  recipient: Address
  /** Integrator fee in bps of the output (0..10000); default `plan.feeBps`, else 0. */
  feeBps?: number
  /** Receives the fee; required when the fee is not 0. */
  feeRecipient?: Address
  /** Wrap `msg.value`; default `plan.nativeIn` (the spec's `useNativeIn` overrides it). */
  nativeIn?: boolean
  /** Unwrap for the recipient; default `plan.nativeOut` (the spec's `unwrapNativeOut`). */
  nativeOut?: boolean
  /** Unix seconds after which the router reverts. */
  deadline: bigint
  /** EIP-2612 signature for `tokenIn`: selects `swapExactInWithPermit`. */
  permit?: PermitPayload
}

export type EncodeSwapExactInReturnType = {
  /** Calldata of `swapExactIn` or `swapExactInWithPermit`. */
  data: Hex
  /** `msg.value` in wei: `amountIn` for a native-in swap, else 0. */
  value: bigint
}

/**
 * Turns a spec RoutePlan into a router call (`docs/route-legs.md`): one `Route` per split route, one
 * `Leg` per route leg, the plan's `minAmountOut`, the integrator fee and the native flags.
 *
 * The router's `tokenIn`/`tokenOut` are the tokens the legs trade: with `nativeIn` the plan's
 * `tokenIn` may be the native sentinel, so the first leg's `tokenIn` (the wrapped native token)
 * is used; likewise `tokenOut` with `nativeOut`. Throws `RouterEncodingError` when the plan cannot
 * run as given (routes' inputs not summing to `amountIn`, routes not starting and ending at the
 * same tokens, a leg kind without a router leg).
 *
 * @example
 * const { data, value } = encodeSwapExactIn({ plan, recipient: user, deadline: BigInt(Math.floor(Date.now() / 1000) + 300) })
 * await walletClient.sendTransaction({ to: router, data, value })
 */
export function encodeSwapExactIn({
  plan,
  recipient,
  feeBps = plan.feeBps ?? 0,
  feeRecipient,
  nativeIn = plan.nativeIn ?? false,
  nativeOut = plan.nativeOut ?? false,
  deadline,
  permit,
}: EncodeSwapExactInParameters): EncodeSwapExactInReturnType {
  const fail = (path: string, message: string): never => {
    throw new RouterEncodingError({ path, message })
  }
  if (plan.routes.length === 0) fail('routes', 'at least one route is needed')
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) fail('feeBps', `must be 0..10000: ${feeBps}`)
  if (feeBps > 0 && (!feeRecipient || !isAddress(feeRecipient, { strict: false }))) fail('feeRecipient', 'required when feeBps > 0')
  if (!isAddress(recipient, { strict: false })) fail('recipient', `not an address: ${recipient}`)
  if (permit && nativeIn) fail('permit', 'a native-in swap pulls no token, so it takes no permit')

  const routes = plan.routes.map((route, r) => {
    if (route.legs.length === 0) fail(`routes[${r}].legs`, 'at least one leg is needed')
    const legs: RouterLeg[] = route.legs.map((leg, i) => encodeRouterLeg({ leg, path: `routes[${r}].legs[${i}]` }))
    return { amountIn: toAmount(route.amountIn, `routes[${r}].amountIn`), legs }
  })
  const firstIn = routes[0].legs[0].tokenIn
  const lastOut = routes[0].legs[routes[0].legs.length - 1].tokenOut
  const tokenIn = nativeIn ? firstIn : getAddress(plan.tokenIn)
  const tokenOut = nativeOut ? lastOut : getAddress(plan.tokenOut)
  routes.forEach((route, r) => {
    if (route.legs[0].tokenIn !== tokenIn) fail(`routes[${r}].legs[0].tokenIn`, `must be the swap's tokenIn ${tokenIn}`)
    route.legs.forEach((leg, i) => {
      if (i > 0 && leg.tokenIn !== route.legs[i - 1].tokenOut) fail(`routes[${r}].legs[${i}].tokenIn`, "must be the previous leg's tokenOut")
    })
    if (route.legs[route.legs.length - 1].tokenOut !== tokenOut) fail(`routes[${r}].legs`, `must end at the swap's tokenOut ${tokenOut}`)
  })
  const amountIn = toAmount(plan.amountIn, 'amountIn')
  const sumOfRoutes = routes.reduce((sum, route) => sum + route.amountIn, 0n)
  if (sumOfRoutes !== amountIn) fail('routes', `route inputs sum to ${sumOfRoutes}, not amountIn ${amountIn}`)

  const params = {
    tokenIn,
    tokenOut,
    amountIn,
    minAmountOut: toAmount(plan.minAmountOut, 'minAmountOut'),
    recipient: getAddress(recipient),
    feeBps,
    feeRecipient: feeRecipient ? getAddress(feeRecipient) : ('0x0000000000000000000000000000000000000000' as Address),
    nativeIn,
    nativeOut,
    deadline,
    routes,
  }
  const value = nativeIn ? amountIn : 0n
  if (!permit) return { data: encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactIn', args: [params] }), value }
  const signature = {
    value: toAmount(permit.value, 'permit.value'),
    deadline: BigInt(permit.deadline),
    v: permit.v,
    r: permit.r,
    s: permit.s,
  }
  return { data: encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactInWithPermit', args: [params, signature] }), value }
}

function toAmount(value: string, path: string): bigint {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new RouterEncodingError({ path, message: `not an amount: ${value}` })
  return BigInt(value)
}
