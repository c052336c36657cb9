import type { Address } from 'viem'
import type { Prng } from '../../test/differential/createPrng.ts'

/** The native asset's sentinel in a request (the spec's; the zero address works too). */
export const NATIVE_SENTINEL: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

export type SoakToken = { symbol: string; address: Address; decimals: number; priceUsd: number }

export type SoakTrade = {
  label: string
  request: {
    chainId: number
    tokenIn: Address
    tokenOut: Address
    amountIn: string
    slippageBps: number
    feeBps: number
    splitEnabled: boolean
    allowedDexes?: string[]
  }
  /** Quoted and encoded in one call (`/execute`) rather than `/quote` then `/submit`. */
  viaExecute: boolean
  symbolIn: string
  symbolOut: string
}

export type DrawSoakTradeParameters = {
  prng: Prng
  chainId: number
  tokens: readonly SoakToken[]
  /** The kinds with pools on the market: a fifth of the trades are held to one of them. */
  kinds: readonly string[]
}

/**
 * One random trade of the back-to-back soak: any pair of the market's tokens (the native asset in a
 * tenth of the trades and out in another tenth), sized from dust (a few raw units) to $3M (a large share
 * of the deepest pools: such trades move prices, so the next trades price moved pools), with an
 * integrator fee on some, splits on most, and a fifth held to one kind so that every kind on the
 * market is traded, not only the deepest.
 *
 * @example
 * const trade = drawSoakTrade({ prng, chainId: 8453, tokens, kinds: ['UNIV3', 'HYDREX'] })
 * // → { label, request: { chainId: 8453, tokenIn, tokenOut, amountIn, slippageBps, feeBps, splitEnabled, allowedDexes? }, viaExecute, symbolIn, symbolOut }
 */
export function drawSoakTrade({ prng, chainId, tokens, kinds }: DrawSoakTradeParameters): SoakTrade {
  // A tenth of the trades start from the native asset and a tenth end in it (WETH is one token of
  // ten: drawn uniformly, ETH would hardly appear).
  const weth = tokens.find((t) => t.symbol === 'WETH')
  const side = weth ? prng.pick(['in', 'out', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'none'] as const) : 'none'
  const a = side === 'in' && weth ? weth : prng.pick(tokens.filter((t) => side !== 'out' || t !== weth))
  const b = side === 'out' && weth ? weth : prng.pick(tokens.filter((t) => t !== a))
  const nativeIn = side === 'in'
  const nativeOut = side === 'out'
  let amountIn: bigint
  let size: string
  if (prng.chance(0.08)) {
    amountIn = prng.bigint(1n, 1000n)
    size = 'dust'
  } else {
    // $0.01 to $3M, log-uniform; the float only shapes the draw, the amount is an integer.
    const usd = 10 ** (-2 + prng.next() * 8.5)
    amountIn = (BigInt(Math.max(1, Math.floor((usd / a.priceUsd) * 1e6))) * 10n ** BigInt(a.decimals)) / 10n ** 6n
    if (amountIn === 0n) amountIn = 1n
    size = `~$${usd.toPrecision(3)}`
  }
  const oneKind = prng.chance(0.2) ? [prng.pick(kinds)] : undefined
  const request = {
    chainId,
    tokenIn: nativeIn ? NATIVE_SENTINEL : a.address,
    tokenOut: nativeOut ? NATIVE_SENTINEL : b.address,
    amountIn: amountIn.toString(),
    slippageBps: prng.pick([0, 10, 50]),
    feeBps: prng.chance(0.3) ? prng.pick([5, 30, 100]) : 0,
    splitEnabled: prng.chance(0.7),
    ...(oneKind ? { allowedDexes: oneKind } : {}),
  }
  const symbolIn = nativeIn ? 'ETH' : a.symbol
  const symbolOut = nativeOut ? 'ETH' : b.symbol
  const label = `${amountIn} ${symbolIn}->${symbolOut} (${size}${oneKind ? `, ${oneKind[0]} only` : ''}${request.feeBps ? `, fee ${request.feeBps} bps` : ''})`
  return { label, request, viaExecute: prng.chance(0.3), symbolIn: a.symbol, symbolOut: b.symbol }
}
