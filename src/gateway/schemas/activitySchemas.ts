import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)

/** One swap on a launched token's pool. */
export const TradeSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    token: ref('GwAddress'),
    tx_hash: ref('GwTxHash'),
    log_index: Type.Integer(),
    block_number: Type.Integer(),
    timestamp: Type.String({ format: 'date-time' }),
    side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
    trader: ref('GwAddress'),
    amount_token: ref('GwAmount'),
    amount_paired: ref('GwAmount'),
    price_raw: ref('GwAmount'),
    finality: ref('GwFinality'),
  },
  { $id: 'Trade', additionalProperties: false },
)

/** A creator's announcement about a token, signed with EIP-712 by the author. */
export const AnnouncementSchema = Type.Object(
  {
    id: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
    chain_id: Type.Integer(),
    token: ref('GwAddress'),
    author: ref('GwAddress'),
    author_is_creator: Type.Boolean({ description: "whether the signer is the token's creator" }),
    title: Type.String(),
    body: Type.String(),
    issued_at: Type.String({ format: 'date-time' }),
    signature: Type.Object(
      { scheme: Type.Literal('eip712'), value: Type.String({ pattern: '^0x[0-9a-f]+$' }) },
      { additionalProperties: false },
    ),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Announcement', additionalProperties: false },
)

/** One holder in a holder snapshot. */
export const HolderSchema = Type.Object(
  {
    rank: Type.Integer({ minimum: 1 }),
    address: ref('GwAddress'),
    balance: ref('GwAmount'),
    share_bps: Type.Integer({ minimum: 0, maximum: 10_000, description: 'balance / total supply, in bps, rounded down' }),
    label: Type.Union([
      Type.Literal('pool'),
      Type.Literal('fee_locker'),
      Type.Literal('vesting_vault'),
      Type.Literal('burn'),
      Type.Literal('creator'),
      Type.Null(),
    ]),
  },
  { $id: 'Holder', additionalProperties: false },
)

/** What a holder snapshot was taken at. */
export const HolderSnapshotSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    token: ref('GwAddress'),
    snapshot_block: Type.Integer({ description: 'the block the balances are at' }),
    holder_count: Type.Integer({ minimum: 0 }),
    total_supply: ref('GwAmount'),
  },
  { $id: 'HolderSnapshot', additionalProperties: false },
)
