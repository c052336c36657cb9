import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)
const Hex = Type.String({ pattern: '^0x([a-fA-F0-9]{2})*$', description: 'hex bytes' })

/** A transaction plan (GATEWAY.md): the unsigned transaction, what it does, and until when it is valid. */
export const TransactionPlanSchema = Type.Object(
  {
    plan_id: Type.String({ pattern: '^plan_[0-9a-z]{26}$' }),
    kind: Type.Union(
      ['launch', 'swap', 'claim_fees', 'claim_vesting', 'metadata_onchain', 'metadata_document'].map((k) => Type.Literal(k)),
    ),
    chain_id: Type.Integer(),
    from: ref('GwAddress'),
    tx: Type.Object(
      {
        chain_id: Type.Integer(),
        from: ref('GwAddress'),
        to: ref('GwAddress'),
        data: Hex,
        value: ref('GwAmount'),
        gas: Type.String({ pattern: '^[0-9]+$', description: 'gas limit: the simulated use plus 20 %' }),
      },
      { additionalProperties: false, description: 'sign and broadcast this exactly, from `from`, before `expires_at`' },
    ),
    summary: Type.Record(Type.String(), Type.Unknown(), { description: 'what the transaction does, in plain fields (by kind)' }),
    requires: Type.Array(
      Type.Object(
        { kind: Type.Literal('approval'), token: ref('GwAddress'), spender: ref('GwAddress'), amount: ref('GwAmount') },
        { additionalProperties: false },
      ),
      { description: 'what must hold on-chain before sending (checked at preparation)' },
    ),
    simulation: Type.Object({ block_number: Type.Integer(), gas_used: ref('GwAmount') }, { additionalProperties: false }),
    as_of_block: Type.Integer(),
    created_at: ref('GwTimestamp'),
    expires_at: Type.String({
      format: 'date-time',
      description: 'never broadcast after this time; then the plan is stale (prepare again)',
    }),
  },
  { $id: 'TransactionPlan', additionalProperties: false },
)

export const TransactionPlanResponse = Type.Object(
  { data: ref('TransactionPlan'), meta: ref('Meta') },
  { $id: 'TransactionPlanResponse', additionalProperties: false },
)
