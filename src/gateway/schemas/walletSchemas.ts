import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)
const TokenRef = Type.Object({ address: ref('GwAddress'), name: Type.String(), symbol: Type.String() }, { additionalProperties: false })

/** A wallet's share of a launch's fees: what it can claim now (live), and what it claimed. */
export const FeeClaimPositionSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    token: TokenRef,
    recipient: ref('GwAddress'),
    bps: Type.Integer({ minimum: 1, maximum: 10_000 }),
    fee_locker: ref('GwAddress'),
    paired_token: ref('GwAddress'),
    claimable: Type.Object(
      { token_raw: ref('GwAmount'), paired_raw: ref('GwAmount') },
      { additionalProperties: false, description: 'what a claim would pay at as_of_block (fees still in the pool included)' },
    ),
    as_of_block: Type.Integer({ description: 'the block claimable was read at' }),
    claimed_total: Type.Object({ token_raw: ref('GwAmount'), paired_raw: ref('GwAmount') }, { additionalProperties: false }),
    claim_count: Type.Integer({ minimum: 0 }),
    last_claim: Type.Union([
      Type.Object(
        { tx_hash: ref('GwTxHash'), block_number: Type.Integer(), claimed_at: Type.String({ format: 'date-time' }) },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    block_number: Type.Integer({ description: 'the block of the last indexed change to this position' }),
    finality: ref('GwFinality'),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'FeeClaimPosition', additionalProperties: false },
)

/** A vesting position of a wallet: its schedule, and what has vested, was claimed and is claimable (live). */
export const VestingPositionSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    position_id: Type.Integer({ minimum: 1 }),
    vault: ref('GwAddress'),
    token: TokenRef,
    beneficiary: ref('GwAddress'),
    amount: ref('GwAmount'),
    vested: ref('GwAmount'),
    claimed: ref('GwAmount'),
    claimable: ref('GwAmount'),
    stage: Type.Union([Type.Literal('locked'), Type.Literal('vesting'), Type.Literal('vested'), Type.Literal('claimed')]),
    start_at: Type.String({ format: 'date-time' }),
    lockup_ends_at: Type.String({ format: 'date-time' }),
    vesting_ends_at: Type.String({ format: 'date-time' }),
    claim_count: Type.Integer({ minimum: 0 }),
    as_of_block: Type.Integer({ description: 'the block vested, claimed, claimable and stage were read at' }),
    block_number: Type.Integer(),
    finality: ref('GwFinality'),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'VestingPosition', additionalProperties: false },
)

/** A wallet at a glance: its launches, holdings, claimable fees and vesting, live at one block. */
export const WalletSummarySchema = Type.Object(
  {
    address: ref('GwAddress'),
    created_tokens: Type.Integer({ minimum: 0 }),
    holdings: Type.Object(
      {
        count: Type.Integer({ minimum: 0 }),
        truncated: Type.Boolean({ description: 'more holdings than listed (the largest 25 by indexed balance are)' }),
        items: Type.Array(
          Type.Object({ chain_id: Type.Integer(), token: TokenRef, balance: ref('GwAmount') }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    fee_claims: Type.Object(
      {
        positions: Type.Integer({ minimum: 0 }),
        truncated: Type.Boolean({
          description:
            'more positions than read: `claimable` sums the 25 whose tokens have the most liquidity (all: GET /wallets/{address}/fee-claims)',
        }),
        claimable: Type.Array(
          Type.Object({ chain_id: Type.Integer(), asset: ref('GwAddress'), amount: ref('GwAmount') }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
    vesting: Type.Object(
      {
        positions: Type.Integer({ minimum: 0 }),
        truncated: Type.Boolean({
          description:
            'more positions than read: `claimable` sums the 25 whose tokens have the most liquidity (all: GET /wallets/{address}/vesting)',
        }),
        claimable: Type.Array(
          Type.Object({ chain_id: Type.Integer(), asset: ref('GwAddress'), amount: ref('GwAmount') }, { additionalProperties: false }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WalletSummary', additionalProperties: false },
)

/** A transaction's status and finality (live). */
export const TransactionStatusSchema = Type.Object(
  {
    chain_id: Type.Integer(),
    hash: ref('GwTxHash'),
    status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('reverted')]),
    block_number: Type.Union([Type.Integer(), Type.Null()]),
    block_hash: Type.Union([ref('GwTxHash'), Type.Null()]),
    confirmations: Type.Integer({ minimum: 0 }),
    finality: Type.Union([ref('GwFinality'), Type.Null()]),
    from: ref('GwAddress'),
    to: Type.Union([ref('GwAddress'), Type.Null()]),
    gas_used: Type.Union([ref('GwAmount'), Type.Null()]),
    launched_token: Type.Union([ref('GwAddress'), Type.Null()], { description: 'the token this transaction launched, if it did' }),
  },
  { $id: 'TransactionStatus', additionalProperties: false },
)
