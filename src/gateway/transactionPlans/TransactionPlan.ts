/** What a prepare route prepares (a plan's `kind`). */
export type PlanKind = 'launch' | 'swap' | 'claim_fees' | 'claim_vesting' | 'metadata_onchain' | 'metadata_document'

/**
 * A transaction plan as answered (GATEWAY.md "Transaction plans"): the unsigned transaction the
 * caller signs and broadcasts (`tx`, with the gas limit from the simulation), what it will do in
 * plain fields (`summary`, by kind), what must be true first (`requires`), the block it was
 * simulated at and when it stops being valid. Amounts are decimal strings.
 */
export type TransactionPlan = {
  plan_id: string
  kind: PlanKind
  chain_id: number
  /** The account that must sign and send `tx` (its simulation ran from this account). */
  from: string
  tx: { chain_id: number; from: string; to: string; data: string; value: string; gas: string }
  summary: Record<string, unknown>
  requires: { kind: 'approval'; token: string; spender: string; amount: string }[]
  simulation: { block_number: number; gas_used: string }
  as_of_block: number
  created_at: string
  /** Never broadcast after this time (spec §7); then `GET /plans/{id}` answers `stale_plan`. */
  expires_at: string
}
