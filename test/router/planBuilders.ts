import { type Address, encodeFunctionData, encodePacked, getAddress, type Hex, zeroAddress } from 'viem'
import { pancakeInfinityClLegData } from '../../src/adapters/pancakeInfinityClLegData.ts'
import type { LegData, RouteLeg, RoutePlan } from '../../src/router/routePlanTypes.ts'
import type { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'

/** A spec RouteLeg (amounts as decimal strings). */
export function routeLeg(
  tokenIn: Address,
  tokenOut: Address,
  data: LegData,
  extra: { minOut?: bigint; poolId?: string; dex?: string } = {},
): RouteLeg {
  return { dex: extra.dex ?? 'TEST', tokenIn, tokenOut, amountIn: '0', minOut: (extra.minOut ?? 0n).toString(), poolId: extra.poolId, data }
}

/** A spec RoutePlan over the given routes; tokens from the first route. */
export function routePlan(
  routes: { amountIn: bigint; legs: RouteLeg[] }[],
  extra: { minAmountOut?: bigint; nativeIn?: boolean; nativeOut?: boolean } = {},
): RoutePlan {
  const legs = routes[0].legs
  const amountIn = routes.reduce((s, r) => s + r.amountIn, 0n)
  return {
    chainId: 8453,
    tokenIn: legs[0].tokenIn,
    tokenOut: legs[legs.length - 1].tokenOut,
    amountIn: amountIn.toString(),
    expectedAmountOut: '0',
    minAmountOut: (extra.minAmountOut ?? 0n).toString(),
    slippageBps: 50,
    routes: routes.map((r) => ({ amountIn: r.amountIn.toString(), legs: r.legs })),
    blockNumber: 0,
    nativeIn: extra.nativeIn,
    nativeOut: extra.nativeOut,
  }
}

/** Legacy V3 path bytes: token ‖ fee ‖ token ‖ … */
export function v3Path(hops: (Address | number)[]): `0x${string}` {
  const types = hops.map((h) => (typeof h === 'number' ? 'uint24' : 'address'))
  return encodePacked(types, hops)
}

export const FAR_DEADLINE = 2n ** 40n

/** The router's own `swapExactIn` parameters (raw legs), for calls the encoder would never build. */
export type RawSwapParams = Parameters<typeof encodeFunctionData<typeof swapRouterAbi, 'swapExactIn'>>[0]['args'][0]

/**
 * Raw `swapExactIn` parameters of one route of one leg (`kind`, `pool`, `data` as the router reads
 * them) for `amountIn` of tokenIn, paid to `recipient`: no minimum, no fee, no native side, FAR_DEADLINE.
 *
 * @example
 * rawSwapParams({ tokenIn: a, tokenOut: b, amountIn: 10n ** 18n, recipient, leg: { kind: 0, pool: pair, data: feeWord } })
 * // → { tokenIn: a, …, routes: [{ amountIn: 10n ** 18n, legs: [{ kind: 0, pool: pair, tokenIn: a, tokenOut: b, minOut: 0n, data: feeWord }] }] }
 */
export function rawSwapParams({
  tokenIn,
  tokenOut,
  amountIn,
  recipient,
  leg,
}: {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  recipient: Address
  leg: { kind: number; pool: Address; data: Hex }
}): RawSwapParams {
  return {
    tokenIn,
    tokenOut,
    amountIn,
    minAmountOut: 0n,
    recipient,
    feeBps: 0,
    feeRecipient: zeroAddress,
    nativeIn: false,
    nativeOut: false,
    deadline: FAR_DEADLINE,
    routes: [{ amountIn, legs: [{ ...leg, tokenIn, tokenOut, minOut: 0n }] }],
  }
}

/** The `pancake_infinity_cl` LegData of a key: the adapter's own (`pancakeInfinityClLegData`). */
export const infinityLeg = pancakeInfinityClLegData

/** The `aerodrome_v2` LegData along `hops` ([from, to, stable] each) of one factory. */
export function aerodromeLeg(factory: Address, hops: [Address, Address, boolean][]): LegData {
  return {
    kind: 'aerodrome_v2',
    routes: hops.map(([from, to, stable]) => ({ from: getAddress(from), to: getAddress(to), stable, factory: getAddress(factory) })),
  }
}
