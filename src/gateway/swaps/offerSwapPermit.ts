import type { Address } from 'viem'
import { isNativeSentinel } from '../../quote/isNativeSentinel.ts'
import type { GatewayChain } from '../GatewayChain.ts'
import { readLiveBlock } from '../live/readLiveBlock.ts'
import type { SwapQuote } from './createSwapQuoteStore.ts'
import { permitTypedData, permitTypedDataJson } from './permitTypedData.ts'
import { readFunding } from './readFunding.ts'
import { readTokenPermit } from './readTokenPermit.ts'

/**
 * Seconds a quote's permit outlives the quote: the plan's own deadline (at most the quote's
 * expiry) is the binding one; the slack only keeps a permit signed near the end of the quote
 * valid on a chain whose clock runs ahead of ours.
 */
const PERMIT_SLACK_SEC = 300n

/**
 * The permit a quote offers (`SwapQuote.permit`): for an ERC-20 input with a published EIP-2612
 * domain whose allowance to the router does not cover `amount`, the typed data of a permit of
 * exactly `amount` to the router at the wallet's nonce now, until the quote's expiry in chain
 * time (plus a slack). Null otherwise (the native asset, no permit, an allowance that covers it).
 *
 * @example
 * const permit = await offerSwapPermit({ chain, wallet, token, amount, ttlMs: 30_000, timeoutMs: 5000 })
 * // → { typed_data: { primaryType: 'Permit', domain, message: { owner: wallet, spender: router, value: String(amount), nonce: '0', deadline } } }
 * //   with deadline the block's time + 30 s + 300 s of slack; null for ETH, a token without a published domain, or enough allowance
 */
export async function offerSwapPermit({
  chain,
  wallet,
  token,
  amount,
  ttlMs,
  timeoutMs,
}: {
  chain: GatewayChain & { swaps: NonNullable<GatewayChain['swaps']> }
  wallet: Address
  token: Address
  amount: bigint
  ttlMs: number
  timeoutMs: number
}): Promise<SwapQuote['permit']> {
  if (isNativeSentinel(token)) return null
  const router = chain.swaps.router
  const blockNumber = await readLiveBlock({ chain, timeoutMs })
  const [funding, tokenPermit] = await Promise.all([
    readFunding({ chain, wallet, token, spender: router, blockNumber, timeoutMs }),
    readTokenPermit({ chain, token, owner: wallet, blockNumber, timeoutMs }),
  ])
  if (!tokenPermit || funding.allowance >= amount) return null
  const deadline = funding.timestamp + BigInt(Math.ceil(ttlMs / 1000)) + PERMIT_SLACK_SEC
  return {
    typed_data: permitTypedDataJson(permitTypedData({ permit: tokenPermit, owner: wallet, spender: router, value: amount, deadline })),
  }
}
