import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)

/** A token's market values: live pool state, and the ranked values of the last periodic refresh (`ranked_at`). */
export const TokenMarketSchema = Type.Object(
  {
    price_raw: Type.Ref('GwAmount', {
      description: "the paired asset's base units one whole token costs at the pool's current price (rounded down)",
    }),
    market_cap_raw: Type.Ref('GwAmount', { description: 'total supply × price, in the paired asset’s base units (rounded down; ranked)' }),
    liquidity_raw: Type.Ref('GwAmount', { description: 'the paired asset the pool holds, in base units (ranked)' }),
    volume_24h_raw: Type.Ref('GwAmount', { description: 'paired-asset volume of the trades of the 24 h before the indexed head (ranked)' }),
    trades_24h: Type.Integer({ minimum: 0 }),
    holder_count: Type.Integer({ minimum: 0 }),
    trending_score: Type.Number({ minimum: 0, description: 'paired volume of the last 24 h, each trade halved every 6 h of age (ranked)' }),
    ranked_at: Type.String({ format: 'date-time', description: 'when the ranked values were last refreshed' }),
  },
  { $id: 'TokenMarket', additionalProperties: false },
)

/** A launched token's pool, as lists show it. */
export const TokenPoolSchema = Type.Object(
  {
    address: ref('GwAddress'),
    dex: Type.Literal('uniswap_v3'),
    fee_pips: Type.Integer(),
    paired_token: ref('GwAddress'),
  },
  { $id: 'TokenPool', additionalProperties: false },
)

/** The fields every view of a token starts with: who and what it is. */
const tokenIdentity = {
  chain_id: Type.Integer(),
  address: ref('GwAddress'),
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
  total_supply: ref('GwAmount'),
  creator: ref('GwAddress'),
  admin: Type.Union([ref('GwAddress'), Type.Null()], { description: 'null once the admin role was renounced' }),
  extra_metadata: Type.String({ description: 'the on-chain extra metadata (by convention ipfs://<cid> of the metadata document)' }),
}

/** A token as lists show it. */
export const TokenSummarySchema = Type.Object(
  {
    ...tokenIdentity,
    launched_at: Type.String({ format: 'date-time' }),
    pool: ref('TokenPool'),
    market: ref('TokenMarket'),
    block_number: Type.Integer({ description: 'the block of the last on-chain change to this token' }),
    finality: ref('GwFinality'),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'TokenSummary', additionalProperties: false },
)

/** A token in full. */
export const TokenDetailSchema = Type.Object(
  {
    ...tokenIdentity,
    metadata: Type.Union([ref('TokenMetadataDocument'), Type.Null()], {
      description: 'the metadata document extra_metadata names, when the gateway holds it',
    }),
    launch: Type.Object(
      {
        tx_hash: ref('GwTxHash'),
        block_number: Type.Integer(),
        launched_at: Type.String({ format: 'date-time' }),
        factory: ref('GwAddress'),
        salt: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
        starting_tick: Type.Integer(),
        pool_supply: ref('GwAmount'),
        vesting_supply: ref('GwAmount'),
        dev_buy: Type.Union([
          Type.Object({ amount_in: ref('GwAmount'), amount_out: ref('GwAmount') }, { additionalProperties: false }),
          Type.Null(),
        ]),
      },
      { additionalProperties: false },
    ),
    pool: Type.Object(
      {
        address: ref('GwAddress'),
        dex: Type.Literal('uniswap_v3'),
        fee_pips: Type.Integer(),
        tick_spacing: Type.Integer(),
        paired_token: ref('GwAddress'),
        token_is_token0: Type.Boolean(),
        sqrt_price_x96: ref('GwAmount'),
        tick: Type.Integer(),
        locked_position: Type.Object(
          { tick_lower: Type.Integer(), tick_upper: Type.Integer(), liquidity: ref('GwAmount') },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    market: ref('TokenMarket'),
    trade_count: Type.Integer({ minimum: 0 }),
    reward_recipients: Type.Array(
      Type.Object({ recipient: ref('GwAddress'), bps: Type.Integer({ minimum: 1, maximum: 10_000 }) }, { additionalProperties: false }),
    ),
    vesting: Type.Array(
      Type.Object(
        {
          position_id: Type.Integer(),
          beneficiary: ref('GwAddress'),
          amount: ref('GwAmount'),
          lockup_ends_at: Type.String({ format: 'date-time' }),
          vesting_ends_at: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ),
    block_number: Type.Integer(),
    finality: ref('GwFinality'),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'TokenDetail', additionalProperties: false },
)
