import { type Address, encodeAbiParameters, type Hex } from 'viem'

/**
 * Calldata for a stand-in's transaction: a 4-byte tag then the trade's words (taker, tokenIn,
 * tokenOut, amountIn, minimum out). Well-formed hex, checked like any upstream's, but a stand-in's
 * transaction is simulated: no contract on any chain executes it (docs/upstreams.md).
 *
 * @example
 * standInCalldata({ tag: '0x5a5a5a5a', taker, tokenIn, tokenOut, amountIn: 10n, minOut: 9n })
 * // → '0x5a5a5a5a' then five 32-byte words (taker, tokenIn, tokenOut, 10, 9): 164 bytes
 */
export function standInCalldata({
  tag,
  taker,
  tokenIn,
  tokenOut,
  amountIn,
  minOut,
}: {
  tag: Hex
  taker: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  minOut: bigint
}): Hex {
  const words = encodeAbiParameters(
    [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }, { type: 'uint256' }],
    [taker, tokenIn, tokenOut, amountIn, minOut],
  )
  return `${tag}${words.slice(2)}` as Hex
}
