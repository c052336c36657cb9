import {
  type Address,
  BaseError,
  decodeErrorResult,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  HttpRequestError,
  type PublicClient,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
} from 'viem'
import { TokenProbeRefusedError } from '../errors.ts'
import { isTransportError } from '../isTransportError.ts'
import { tokenTransferProbeAbi, tokenTransferProbeRuntimeCode } from './tokenTransferProbeArtifact.ts'

/**
 * The peer the probe sends to and receives back from. No contract lives there on any chain we
 * serve; the override puts the probe's code there for the call only. A fresh address: taxed
 * tokens exempt some wallets, never an unknown one.
 */
export const TOKEN_PROBE_PEER: Address = '0x0000000000000000000000000000000070b3e2e0'

export type ProbeTokenTransferParameters = {
  client: PublicClient
  token: Address
  /** Holds the token for the pool: the pool itself, or a singleton (V4's PoolManager). */
  holder: Address
  blockNumber: bigint
}

/** Balance changes of a simulated transfer out of the holder and back, in the token's units. */
export type TokenTransferMoves = {
  /** The holder's balance before; the amount sent out (1 % of it, or all of it below 1,000,000). */
  balance: bigint
  amount: bigint
  /** Out: how much the holder's balance fell and the peer's rose. */
  outSent: bigint
  outReceived: bigint
  /** Back: the peer sends `outReceived` to the holder. */
  backSent: bigint
  backReceived: bigint
}

export type ProbeTokenTransferReturnType =
  | { kind: 'moved'; moves: TokenTransferMoves }
  /** The holder has none of the token: nothing to probe with (an empty pool). */
  | { kind: 'empty' }
  /** A transfer out of the holder or back into it reverted (or returned false). */
  | { kind: 'reverted'; reason: string }

/**
 * Simulates, with one `eth_call`, a transfer of `token` out of the pool's holder to a fresh peer
 * and back (`contracts/lens/TokenTransferProbe.sol` at both addresses by a state override, so the
 * token sees the pool send, as in a swap, then receive, as when the router pays it), at
 * `blockNumber`, and reports how much each balance moved. Nothing is sent on the chain. A node
 * that does not answer fails as it is; a node that answers with an error other than a revert (no
 * state overrides) throws `TokenProbeRefusedError` (the caller leaves the token unjudged).
 *
 * @example
 * const result = await probeTokenTransfer({ client, token, holder: pool, blockNumber })
 * // → { kind: 'moved', moves: { amount, outSent, outReceived, backSent, backReceived } }, or 'empty' / 'reverted'
 * if (result.kind === 'moved' && result.moves.outReceived !== result.moves.amount) console.log('fee on transfer')
 */
export async function probeTokenTransfer({
  client,
  token,
  holder,
  blockNumber,
}: ProbeTokenTransferParameters): Promise<ProbeTokenTransferReturnType> {
  const data = encodeFunctionData({ abi: tokenTransferProbeAbi, functionName: 'probe', args: [token, TOKEN_PROBE_PEER] })
  let returned: Hex | undefined
  try {
    ;({ data: returned } = await client.call({
      to: holder,
      data,
      blockNumber,
      stateOverride: [
        { address: holder, code: tokenTransferProbeRuntimeCode },
        { address: TOKEN_PROBE_PEER, code: tokenTransferProbeRuntimeCode },
      ],
    }))
  } catch (error) {
    if (isRevert(error)) return { kind: 'reverted', reason: revertReason(error) }
    // A node that answered with an error (no state overrides, a method it refuses) is not down:
    // the token stays unjudged; only an unreachable node fails the step.
    if (isTransportError(error) && !answeredWithError(error)) throw error
    throw new TokenProbeRefusedError({ token, cause: error })
  }
  if (!returned) throw new Error(`token transfer probe returned nothing for ${token} at block ${blockNumber}`)
  const [balance, amount, outSent, outReceived, backSent, backReceived] = decodeFunctionResult({
    abi: tokenTransferProbeAbi,
    functionName: 'probe',
    data: returned,
  })
  if (balance === 0n) return { kind: 'empty' }
  return { kind: 'moved', moves: { balance, amount, outSent, outReceived, backSent, backReceived } }
}

/** The node answered (a JSON-RPC error), as opposed to not answering at all. */
function answeredWithError(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  const unreachable = error.walk(
    (e) =>
      e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof SocketClosedError || e instanceof WebSocketRequestError,
  )
  return !unreachable && !!error.walk((e) => e instanceof RpcRequestError)
}

/** An execution revert (the EVM ran and reverted), not a node refusing the call. */
function isRevert(error: unknown): boolean {
  const text = error instanceof BaseError ? `${error.shortMessage} ${error.details ?? ''}` : String(error)
  return /revert/i.test(text)
}

/** The probe's own error (which leg failed), else the node's words. */
function revertReason(error: unknown): string {
  if (!(error instanceof BaseError)) return String(error).slice(0, 200)
  const withData = error.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null
  if (withData?.data && withData.data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: tokenTransferProbeAbi, data: withData.data })
      if (decoded.errorName === 'TransferFailed')
        return decoded.args[0] === 0 ? 'its transfer out of the pool reverts' : 'its transfer into the pool reverts'
    } catch {
      // Not the probe's error: the node's words below.
    }
  }
  return (error.details || error.shortMessage).slice(0, 200)
}
