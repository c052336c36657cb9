import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from 'viem'
import type { PropAmmDexId } from './propAmmDexIds.ts'

export const propAmmQuoteAbi = parseAbi([
  'function quoteExactInput(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
  'function tesseraSwapViewAmounts(address tokenIn, address tokenOut, int256 amountSpecified) view returns (uint256 amountIn, uint256 amountOut)',
  'function getAmountOut(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
  'function quoteExactIn(address tokenIn, address tokenOut, uint256 amountIn) view returns (uint256 amountOut)',
])

export type PropAmmQuoteCall = { target: Address; callData: Hex }

/**
 * The venue's own exact-input quote view (research/dex-kinds.md §2.11), called on its entry
 * contract: PROPSWAP `quoteExactInput` on the PropSwap router, TESSERA `tesseraSwapViewAmounts` on
 * the engine, ELFOMOFI and FELTIR `getAmountOut`, LUNARBASE `quoteExactIn` on the venue.
 *
 * @example
 * const { target, callData } = propAmmQuoteCall({ dex: 'TESSERA', entry, tokenIn, tokenOut, amountIn: 10n ** 18n })
 * // → the engine and tesseraSwapViewAmounts(tokenIn, tokenOut, 1e18); decodePropAmmQuote('TESSERA', answer) → amountOut
 */
export function propAmmQuoteCall({
  dex,
  entry,
  tokenIn,
  tokenOut,
  amountIn,
}: {
  dex: PropAmmDexId
  entry: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
}): PropAmmQuoteCall {
  return {
    target: entry,
    callData: encodeFunctionData({ abi: propAmmQuoteAbi, functionName: functionOf[dex], args: [tokenIn, tokenOut, amountIn] }),
  }
}

/** The output amount of a `propAmmQuoteCall` answer. */
export function decodePropAmmQuote(dex: PropAmmDexId, data: Hex): bigint {
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
