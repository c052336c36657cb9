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
  /**
   * Holds the trade to one kind, between the tokens of one of its pools (so a route exists however
   * few pools the kind has). The caller names the kinds in turn, so every kind on the market is
   * traded, not only the deepest; without it the trade may route through any kind.
   */
  heldTo?: { kind: string; pairs: readonly (readonly [Address, Address])[] }
}

/**
 * One random trade of the back-to-back soak: any pair of the market's tokens (the native asset in a
 * tenth of the trades and out in another tenth), sized from dust (a few raw units) to $3M (a large share
 * of the deepest pools: such trades move prices, so the next trades price moved pools), with an
 * integrator fee on some, splits on most; one held to a kind (`heldTo`) trades a pair of that kind's
 * pools, in either direction, through that kind alone.
 *
 * @example
 * const trade = drawSoakTrade({ prng, chainId: 8453, tokens, heldTo: { kind: 'HYDREX', pairs: [[weth, usdc]] } })
 * // → { label, request: { chainId: 8453, tokenIn, tokenOut, amountIn, slippageBps, feeBps, splitEnabled, allowedDexes? }, viaExecute, symbolIn, symbolOut }
 */
export function drawSoakTrade({ prng, chainId, tokens, heldTo }: DrawSoakTradeParameters): SoakTrade {
  // A tenth of the trades start from the native asset and a tenth end in it (WETH is one token of
  // ten: drawn uniformly, ETH would hardly appear); a trade held to one kind trades its pool's tokens.
  const weth = tokens.find((t) => t.symbol === 'WETH')
  const side = weth && !heldTo ? prng.pick(['in', 'out', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'none'] as const) : 'none'
  const [a, b] = heldTo ? poolPair(prng, tokens, heldTo.pairs) : freePair(prng, tokens, side, weth)
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
  const oneKind = heldTo ? [heldTo.kind] : undefined
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

/** Any two tokens of the market, WETH on the side the native asset takes. */
function freePair(
  prng: Prng,
  tokens: readonly SoakToken[],
  side: 'in' | 'out' | 'none',
  weth: SoakToken | undefined,
): [SoakToken, SoakToken] {
  const a = side === 'in' && weth ? weth : prng.pick(tokens.filter((t) => side !== 'out' || t !== weth))
  const b = side === 'out' && weth ? weth : prng.pick(tokens.filter((t) => t !== a))
  return [a, b]
}

/** The two tokens of one of the pairs, in either order. */
function poolPair(prng: Prng, tokens: readonly SoakToken[], pairs: readonly (readonly [Address, Address])[]): [SoakToken, SoakToken] {
  const [x, y] = prng.pick(pairs).map((address) => {
    const token = tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())
    if (!token) throw new Error(`a pool's token ${address} is not among the soak's tokens`)
    return token
  })
  return prng.chance(0.5) ? [x, y] : [y, x]
}
