import { type Address, BaseError, type PublicClient } from 'viem'
import { TokenHistoryUnavailableError } from '../errors.ts'
import { isTransportError } from '../isTransportError.ts'
import { probeTokenTransfer } from './probeTokenTransfer.ts'
import { reconcileTokenBalance } from './reconcileTokenBalance.ts'

/** What the market concluded about a token: routable, or left out and why. */
export type TokenVerdict =
  /** `unchecked`: what this verdict did not check (the node served no state as old as the window), so it is re-checked sooner. */
  { kind: 'plain'; unchecked?: string } | { kind: 'feeOnTransfer' | 'rebasing' | 'untransferable'; reason: string }

export type JudgeTokenBehaviourParameters = {
  client: PublicClient
  token: Address
  /** A pool's holder of the token (the pool, or V4's PoolManager): its balance is what is probed. */
  holder: Address
  blockNumber: bigint
  /** Blocks back from `blockNumber` over which the holder's balance must move only by Transfers (0: no rebasing check). */
  windowBlocks: bigint
  maxBlockRange: bigint
}

/**
 * Judges one token for the solver's exact math, which assumes a pool receives what the router
 * sends and holds what it held (docs/real-chain.md, "Fee-on-transfer and rebasing tokens"):
 *
 * 1. a simulated transfer out of the holder and back (`probeTokenTransfer`): any balance that
 *    moves by other than the amount is a fee on transfer (or share rounding); a transfer that
 *    reverts leaves the token out too (a swap through the pool would revert);
 * 2. the holder's balance over the last `windowBlocks` blocks against the token's Transfer
 *    events (`reconcileTokenBalance`): a balance that moved without a Transfer is rebasing.
 *
 * Undefined when the holder has none of the token (nothing to probe with: judged again when the
 * pool is next read). A node that cannot answer for the window's first block throws
 * `TokenHistoryUnavailableError` (the caller shrinks the window).
 *
 * @example
 * const verdict = await judgeTokenBehaviour({ client, token, holder: pool, blockNumber, windowBlocks: 1800n, maxBlockRange: 2000n })
 * // → { kind: 'plain' }, or { kind: 'feeOnTransfer' | 'rebasing' | 'untransferable', reason }; undefined: holds none
 * if (verdict?.kind === 'feeOnTransfer') console.log(verdict.reason)
 */
export async function judgeTokenBehaviour({
  client,
  token,
  holder,
  blockNumber,
  windowBlocks,
  maxBlockRange,
}: JudgeTokenBehaviourParameters): Promise<TokenVerdict | undefined> {
  const probe = await probeTokenTransfer({ client, token, holder, blockNumber })
  if (probe.kind === 'empty') return undefined
  if (probe.kind === 'reverted')
    return { kind: 'untransferable', reason: `cannot be moved in a simulated transfer at block ${blockNumber}: ${probe.reason}` }
  const { amount, outSent, outReceived, backSent, backReceived } = probe.moves
  if (outSent !== amount || outReceived !== amount || backSent !== outReceived || backReceived !== outReceived) {
    return {
      kind: 'feeOnTransfer',
      reason: `moves other amounts than asked (fee on transfer or rounding): at block ${blockNumber}, sending ${amount} out of ${holder} took ${outSent} and delivered ${outReceived}; sending ${outReceived} back took ${backSent} and delivered ${backReceived}`,
    }
  }
  if (windowBlocks <= 0n || blockNumber < 1n) return { kind: 'plain' }
  const fromBlock = blockNumber - windowBlocks + 1n > 1n ? blockNumber - windowBlocks + 1n : 1n
  let balance: Awaited<ReturnType<typeof reconcileTokenBalance>>
  try {
    balance = await reconcileTokenBalance({ client, token, holder, fromBlock, toBlock: blockNumber, maxBlockRange })
  } catch (error) {
    if (isHistoryMissing(error) || !isTransportError(error))
      throw new TokenHistoryUnavailableError({ fromBlock: fromBlock - 1n, cause: error })
    throw error
  }
  if (!balance.reconciles) {
    const net = balance.transferredIn - balance.transferredOut
    return {
      kind: 'rebasing',
      reason: `changes balances without Transfer events (rebasing or interest-bearing): ${holder} held ${balance.before} at block ${fromBlock - 1n} and ${balance.after} at block ${blockNumber}, a change of ${balance.after - balance.before}, while its Transfers in between net ${net}`,
    }
  }
  return { kind: 'plain' }
}

/**
 * How nodes say they no longer hold a block's state: anvil after `--load-state` (BlockOutOfRange,
 * an invalid-params answer), geth and reth full nodes (missing trie node, header not found, state
 * pruned or not available). These answers are not the node failing.
 */
function isHistoryMissing(error: unknown): boolean {
  const text = error instanceof BaseError ? `${error.message} ${error.details ?? ''}` : String(error)
  return /BlockOutOfRange|missing trie node|header not found|pruned|state (is )?not available|historical state/i.test(text)
}
