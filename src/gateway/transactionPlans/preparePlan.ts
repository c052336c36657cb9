import type { Address, Hex } from 'viem'
import { getAddress } from 'viem'
import type { FastifyRequest } from 'fastify'
import type { GatewayChain } from '../GatewayChain.ts'
import type { GatewayDependencies } from '../GatewayDependencies.ts'
import { readLiveBlock } from '../live/readLiveBlock.ts'
import { chainConfigDigest } from './chainConfigDigest.ts'
import { newPlanId } from './newPlanId.ts'
import { type SimulateTransactionParameters, simulateTransaction } from './simulateTransaction.ts'
import type { PlanKind, TransactionPlan } from './TransactionPlan.ts'

/** A plan is valid this long unless its route says otherwise (a swap plan: its quote's expiry). */
export const DEFAULT_PLAN_TTL_MS = 120_000

/**
 * Gas limit from the simulation's estimate, with a margin: the state may move a little between
 * the simulation and the inclusion (another trade in the pool, a fee accrual).
 */
const GAS_MARGIN_PERCENT = 120n

export type PreparePlanParameters = {
  deps: GatewayDependencies
  request: FastifyRequest
  chain: GatewayChain
  kind: PlanKind
  from: Address
  tx: { to: Address; data: Hex; value: bigint }
  summary: Record<string, unknown>
  requires?: TransactionPlan['requires']
  /** Custom errors of the plan's contracts and the codes their reverts answer. */
  abis: SimulateTransactionParameters['abis']
  reverts: SimulateTransactionParameters['reverts']
  /** When the plan stops being valid (ms since the epoch); default `DEFAULT_PLAN_TTL_MS` from now. */
  expiresAt?: number
  /** The block to simulate at, when the route already read one (its checks and the simulation then agree). */
  blockNumber?: bigint
}

/**
 * A transaction plan, simulated and stored: reads the latest block (unless given), simulates the
 * transaction from its sender there (`simulateTransaction`: a revert answers the spec's code or
 * `simulation_failed`), sets the gas limit from the estimate, records the plan for
 * `GET /plans/{id}` under the caller's key with the chain's configuration digest, and returns it.
 *
 * @example
 * const plan = await preparePlan({ deps, request, chain, kind: 'claim_fees', from, tx, summary, abis: [feeLockerAbi], reverts })
 * // → { plan_id, kind: 'claim_fees', chain_id, from, tx: { to, data, value, gas }, summary, requires, simulation, as_of_block, expires_at, … }
 */
export async function preparePlan({
  deps,
  request,
  chain,
  kind,
  from,
  tx,
  summary,
  requires = [],
  abis,
  reverts,
  expiresAt,
  blockNumber,
}: PreparePlanParameters): Promise<TransactionPlan> {
  const block = blockNumber ?? (await readLiveBlock({ chain, timeoutMs: deps.liveReadTimeoutMs }))
  const { gasUsed } = await simulateTransaction({
    chain,
    from,
    to: tx.to,
    data: tx.data,
    value: tx.value,
    blockNumber: block,
    abis,
    reverts,
    timeoutMs: deps.liveReadTimeoutMs,
  })
  const createdAt = deps.now()
  const expires = expiresAt ?? createdAt + DEFAULT_PLAN_TTL_MS
  const sender = getAddress(from)
  const plan: TransactionPlan = {
    plan_id: newPlanId(createdAt),
    kind,
    chain_id: chain.chainId,
    from: sender,
    tx: {
      chain_id: chain.chainId,
      from: sender,
      to: getAddress(tx.to),
      data: tx.data,
      value: tx.value.toString(),
      gas: ((gasUsed * GAS_MARGIN_PERCENT) / 100n).toString(),
    },
    summary,
    requires,
    simulation: { block_number: Number(block), gas_used: gasUsed.toString() },
    as_of_block: Number(block),
    created_at: new Date(createdAt).toISOString(),
    expires_at: new Date(expires).toISOString(),
  }
  await deps.plans.save({ plan, keyPrefix: request.gw.key!.prefix, configDigest: chainConfigDigest(chain), createdAt, expiresAt: expires })
  return plan
}
