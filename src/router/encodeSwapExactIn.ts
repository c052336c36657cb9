import { type Address, encodeFunctionData, getAddress, type Hex, isAddress } from 'viem'
import { encodeRouterLeg, type RouterLeg } from './encodeRouterLeg.ts'
import { hexByteLength } from './hexByteLength.ts'
import { parseUint256 } from './parseUint256.ts'
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
 * is used; likewise `tokenOut` with `nativeOut`. A plan of no routes is a wrap (`nativeIn`) or an
 * unwrap (`nativeOut`) alone, WETH on both sides: the router's deposit or withdraw is the trade. Throws `RouterEncodingError` when the plan cannot
 * run as given (routes' inputs not summing to `amountIn`, routes not starting and ending at the
 * same tokens, a leg kind without a router leg) and before viem's ABI encoder sees a value outside
 * its ABI type (an amount or deadline beyond uint256, a negative one, a permit `r`/`s` that is not
 * 32 bytes, `v` beyond uint8): the error's `path` names the field (`permit.r`, `recipient`,
 * `routes[0].legs[1].minOut`), and viem never throws on a value it was given.
 *
 * @example
 * const { data, value } = encodeSwapExactIn({ plan, recipient: user, deadline: BigInt(Math.floor(Date.now() / 1000) + 300) })
 * // → data: swapExactIn calldata (swapExactInWithPermit with a permit); value: the amount in when nativeIn, else 0n
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
  // No routes is the router's own wrap or unwrap alone: exactly one native end, WETH both sides.
  if (plan.routes.length === 0 && nativeIn === nativeOut)
    fail('routes', 'at least one route is needed, unless the plan is a wrap or unwrap alone (exactly one native end)')
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps > 10_000) fail('feeBps', `must be 0..10000: ${feeBps}`)
  if (feeBps > 0 && (!feeRecipient || !isAddress(feeRecipient, { strict: false }))) fail('feeRecipient', 'required when feeBps > 0')
  if (typeof recipient !== 'string' || !isAddress(recipient, { strict: false })) fail('recipient', `not an address: ${String(recipient)}`)
  if (permit && nativeIn) fail('permit', 'a native-in swap pulls no token, so it takes no permit')
  const deadlineSec = parseUint256({ value: deadline, path: 'deadline' })
  const amountIn = parseUint256({ value: plan.amountIn, path: 'amountIn' })
  const signature = permit && permitSignature(permit)

  const routes = plan.routes.map((route, r) => {
    if (route.legs.length === 0) fail(`routes[${r}].legs`, 'at least one leg is needed')
    const legs: RouterLeg[] = route.legs.map((leg, i) => encodeRouterLeg({ leg, path: `routes[${r}].legs[${i}]` }))
    return { amountIn: parseUint256({ value: route.amountIn, path: `routes[${r}].amountIn` }), legs }
  })
  // With no routes the wrapped token is the plan's non-native side: the output of a wrap, the input of an unwrap.
  const wrapped = routes.length === 0 ? getAddress(nativeIn ? plan.tokenOut : plan.tokenIn) : undefined
  const firstIn = routes[0]?.legs[0].tokenIn ?? (wrapped as Address)
  const lastOut = routes[0]?.legs[routes[0].legs.length - 1].tokenOut ?? (wrapped as Address)
  const tokenIn = nativeIn ? firstIn : getAddress(plan.tokenIn)
  const tokenOut = nativeOut ? lastOut : getAddress(plan.tokenOut)
  routes.forEach((route, r) => {
    if (route.legs[0].tokenIn !== tokenIn) fail(`routes[${r}].legs[0].tokenIn`, `must be the swap's tokenIn ${tokenIn}`)
    route.legs.forEach((leg, i) => {
      if (i > 0 && leg.tokenIn !== route.legs[i - 1].tokenOut)
        fail(`routes[${r}].legs[${i}].tokenIn`, "must be the previous leg's tokenOut")
    })
    if (route.legs[route.legs.length - 1].tokenOut !== tokenOut) fail(`routes[${r}].legs`, `must end at the swap's tokenOut ${tokenOut}`)
  })
  const sumOfRoutes = routes.reduce((sum, route) => sum + route.amountIn, 0n)
  if (routes.length > 0 && sumOfRoutes !== amountIn) fail('routes', `route inputs sum to ${sumOfRoutes}, not amountIn ${amountIn}`)

  const params = {
    tokenIn,
    tokenOut,
    amountIn,
    minAmountOut: parseUint256({ value: plan.minAmountOut, path: 'minAmountOut' }),
    recipient: getAddress(recipient),
    feeBps,
    feeRecipient: feeRecipient ? getAddress(feeRecipient) : ('0x0000000000000000000000000000000000000000' as Address),
    nativeIn,
    nativeOut,
    deadline: deadlineSec,
    routes,
  }
  const value = nativeIn ? amountIn : 0n
  if (!signature) return { data: encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactIn', args: [params] }), value }
  return { data: encodeFunctionData({ abi: swapRouterAbi, functionName: 'swapExactInWithPermit', args: [params, signature] }), value }
}

/** The router's `Permit` struct, every field checked against its ABI type (uint256, uint8, bytes32). */
function permitSignature(permit: PermitPayload): { value: bigint; deadline: bigint; v: number; r: Hex; s: Hex } {
  const fail = (field: string, message: string): never => {
    throw new RouterEncodingError({ path: `permit.${field}`, message })
  }
  const { deadline, v, r, s } = permit
  if (typeof deadline !== 'number' || !Number.isSafeInteger(deadline) || deadline < 0)
    fail('deadline', `must be a whole number of seconds in 0..2^53 - 1: ${String(deadline)}`)
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) fail('v', `must be an integer in 0..255 (uint8): ${String(v)}`)
  if (hexByteLength(r) !== 32) fail('r', 'must be 32 bytes of hex (bytes32)')
  if (hexByteLength(s) !== 32) fail('s', 'must be 32 bytes of hex (bytes32)')
  return { value: parseUint256({ value: permit.value, path: 'permit.value' }), deadline: BigInt(deadline), v, r, s }
}
