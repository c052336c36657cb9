import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from 'viem'
import type { PropAmmDexId } from './propAmmDexIds.ts'
import type { PropAmmQuoteAsk } from './propAmmQuotesAsExecutor.ts'

export const propAmmQuoteAbi = parseAbi([
  'function quoteExactInput(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
  'function tesseraSwapViewAmounts(address tokenIn, address tokenOut, int256 amountSpecified) view returns (uint256 amountIn, uint256 amountOut)',
  'function getAmountOut(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
  'function quoteExactIn(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
  'function get_dy(uint256 i, uint256 j, uint256 dx) view returns (uint256)',
])

/**
 * The kinds whose own quote view prices their sampled venues: the prop AMMs, and CURVE's CryptoSwap
 * pools (twocrypto-ng's `get_dy(uint256 i, uint256 j, uint256 dx)`, docs/dex-kinds.md).
 */
export type QuotedDexId = PropAmmDexId | 'CURVE'

export type PropAmmQuoteCall = { target: Address; callData: Hex }

/**
 * The venue's own exact-input quote view (research/dex-kinds.md §2.11), called on its entry
 * contract: PROPSWAP `quoteExactInput` on the PropSwap router, TESSERA `tesseraSwapViewAmounts` on
 * the engine, ELFOMOFI and FELTIR `getAmountOut`, LUNARBASE `quoteExactIn` on the venue; a CURVE
 * CryptoSwap pool's `get_dy` with the tokens' indexes in `coins` (the pool's coins in its order).
 *
 * @example
 * const { target, callData } = propAmmQuoteCall({ dex: 'TESSERA', entry, tokenIn, tokenOut, amountIn: 10n ** 18n })
 * // → the engine and tesseraSwapViewAmounts(tokenIn, tokenOut, 1e18); decodePropAmmQuote('TESSERA', answer) → amountOut
 */
export function propAmmQuoteCall({ dex, entry, tokenIn, tokenOut, amountIn, coins }: PropAmmQuoteAsk): PropAmmQuoteCall {
  if (dex === 'CURVE') {
    const index = (token: Address) => BigInt(coins?.findIndex((c) => c.toLowerCase() === token.toLowerCase()) ?? -1)
    const [i, j] = [index(tokenIn), index(tokenOut)]
    if (i < 0n || j < 0n) throw new Error(`CURVE pool ${entry}: ${tokenIn} → ${tokenOut} is not a pair of its coins`)
    return { target: entry, callData: encodeFunctionData({ abi: propAmmQuoteAbi, functionName: 'get_dy', args: [i, j, amountIn] }) }
  }
  return {
    target: entry,
    callData: encodeFunctionData({ abi: propAmmQuoteAbi, functionName: functionOf[dex], args: [tokenIn, tokenOut, amountIn] }),
  }
}

/** The output amount of a `propAmmQuoteCall` answer. */
export function decodePropAmmQuote(dex: QuotedDexId, data: Hex): bigint {
  if (dex === 'CURVE') return decodeFunctionResult({ abi: propAmmQuoteAbi, functionName: 'get_dy', data })
  const decoded = decodeFunctionResult({ abi: propAmmQuoteAbi, functionName: functionOf[dex], data })
  return Array.isArray(decoded) ? (decoded[1] as bigint) : (decoded as bigint)
}

const functionOf = {
  PROPSWAP: 'quoteExactInput',
  TESSERA: 'tesseraSwapViewAmounts',
  ELFOMOFI: 'getAmountOut',
  LUNARBASE: 'quoteExactIn',
  FELTIR: 'getAmountOut',
} as const satisfies Record<PropAmmDexId, string>
