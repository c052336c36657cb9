import { type Abi, type Address, BaseError, decodeErrorResult, type Hex, RawContractError } from 'viem'
import type { GatewayChain } from '../GatewayChain.ts'
import { withDeadline } from '../live/withDeadline.ts'
import { GatewayProblem } from '../problems/GatewayProblem.ts'
import type { ProblemCode } from '../problems/problemCodes.ts'

/** How a revert of the plan's contracts is answered: the spec's code and what to tell the caller. */
export type RevertMapping = Record<string, { code: ProblemCode; detail: string }>

/** Standard `Error(string)` reverts (ERC-20s without custom errors) that mean the wallet cannot fund the call. */
const UNFUNDED = /transfer amount exceeds balance|insufficient balance|exceeds balance|STF|TRANSFER_FROM_FAILED/i

export type SimulateTransactionParameters = {
  chain: GatewayChain
  from: Address
  to: Address
  data: Hex
  value: bigint
  /** The block simulated at: the plan's `as_of_block` (the latest when the plan was prepared). */
  blockNumber: bigint
  /** ABIs whose custom errors a revert is decoded with. */
  abis: readonly Abi[]
  /** The decoded errors that have a code of their own (spec §7); any other revert is `simulation_failed`. */
  reverts: RevertMapping
  timeoutMs: number
}

/**
 * Runs the unsigned transaction with `eth_call` from its sender at `blockNumber`, then estimates
 * its gas there (GATEWAY.md: every plan is simulated before it is returned; nothing is ever
 * broadcast by us). A revert is decoded with the plan's contracts' ABIs and answered with the
 * code `reverts` gives its error, else `simulation_failed` naming the error (never the node's raw
 * message); a chain that fails or times out is the mapped dependency error.
 *
 * @example
 * const { gasUsed } = await simulateTransaction({ chain, from, to, data, value: 0n, blockNumber, abis: [launchFactoryAbi], reverts: { PoolAlreadyInitialized: { code: 'salt_unavailable', detail: '…' } }, timeoutMs: 5000 })
 * // → { gasUsed } at blockNumber; a revert → the mapped problem (here 'salt_unavailable') or 'simulation_failed'
 */
export async function simulateTransaction({
  chain,
  from,
  to,
  data,
  value,
  blockNumber,
  abis,
  reverts,
  timeoutMs,
}: SimulateTransactionParameters): Promise<{ gasUsed: bigint }> {
  const run = async () => {
    try {
      await chain.client.call({ account: from, to, data, value, blockNumber })
      return await chain.client.estimateGas({ account: from, to, data, value, blockNumber })
    } catch (error) {
      const revert = revertOf(error)
      if (revert === undefined) throw error
      throw problemOf({ revert, abis, reverts })
    }
  }
  const gasUsed = await withDeadline({ run, dependency: 'the chain', timeoutMs })
  return { gasUsed }
}

/** The revert data (or reason) of a failed call, or undefined when the failure was not a revert. */
function revertOf(error: unknown): { data?: Hex; reason?: string } | undefined {
  if (!(error instanceof BaseError)) return undefined
  // The node's revert data sits on the RPC error viem wraps (`data`, a hex string or `{ data }`).
  const hexOf = (e: unknown): Hex | undefined => {
    const d = (e as { data?: unknown }).data
    const value =
      typeof d === 'string' ? d : typeof (d as { data?: unknown } | undefined)?.data === 'string' ? (d as { data: string }).data : undefined
    return value && /^0x[0-9a-fA-F]*$/.test(value) ? (value as Hex) : undefined
  }
  const carrier = error.walk((e) => e instanceof RawContractError || hexOf(e) !== undefined)
  const data = carrier ? hexOf(carrier) : undefined
  const text = `${error.shortMessage} ${error.details ?? ''}`
  if (data !== undefined || /revert/i.test(text)) return { data, reason: error.details ?? error.shortMessage }
  return undefined
}

function problemOf({
  revert,
  abis,
  reverts,
}: {
  revert: { data?: Hex; reason?: string }
  abis: readonly Abi[]
  reverts: RevertMapping
}): GatewayProblem {
  let name: string | undefined
  let reason = revert.reason
  if (revert.data && revert.data !== '0x') {
    for (const abi of [...abis, [{ type: 'error', name: 'Error', inputs: [{ name: 'reason', type: 'string' }] }] as const]) {
      try {
        const decoded = decodeErrorResult({ abi: abi as Abi, data: revert.data })
        name = decoded.errorName
        if (name === 'Error') reason = String(decoded.args?.[0] ?? '')
        break
      } catch {
        // Not one of this ABI's errors: the next one.
      }
    }
  }
  const mapped = name ? reverts[name] : undefined
  if (mapped) return new GatewayProblem(mapped.code, { detail: mapped.detail })
  if (reason && UNFUNDED.test(reason) && reverts.Unfunded)
    return new GatewayProblem(reverts.Unfunded.code, { detail: reverts.Unfunded.detail })
  const what = name && name !== 'Error' ? `the contract's ${name} error` : 'a revert'
  return new GatewayProblem('simulation_failed', {
    detail: `The transaction did not simulate successfully at the latest block: it ended in ${what}.`,
  })
}
