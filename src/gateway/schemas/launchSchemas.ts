import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)

/** `POST /launches/prepare`'s body (decisions: docs/gateway/write-routes.md). */
export const LaunchPrepareRequest = Type.Object(
  {
    chain_id: Type.Integer({ minimum: 1 }),
    creator: Type.Ref('GwAddress', { description: 'the wallet that signs and sends the launch (the token address is bound to it)' }),
    name: Type.String({ minLength: 1, maxLength: 64 }),
    symbol: Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z0-9$._-]+$' }),
    metadata_uri: Type.Optional(
      Type.String({ maxLength: 4096, description: "the token's extra metadata on-chain, e.g. ipfs://<cid> of its metadata document" }),
    ),
    admin: Type.Optional(Type.Ref('GwAddress', { description: 'who may update name, symbol and metadata later; default the creator' })),
    paired_asset: Type.Optional(
      Type.Ref('GwAddress', { description: "default the chain's wrapped native token; others must be allowed by the factory (/config)" }),
    ),
    starting_market_cap_raw: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,77}$',
        description: "fully diluted market cap at launch, in the paired asset's base units (default 10^19: 10 WETH)",
      }),
    ),
    rewards: Type.Optional(
      Type.Array(
        Type.Object({ recipient: ref('GwAddress'), bps: Type.Integer({ minimum: 0, maximum: 10_000 }) }, { additionalProperties: false }),
        {
          maxItems: 16,
          description:
            'who receives the LP fees, in bps summing to 10,000 (1 to 7 recipients, distinct, none zero); default all to the creator',
        },
      ),
    ),
    vesting: Type.Optional(
      Type.Object(
        {
          beneficiary: ref('GwAddress'),
          bps: Type.Integer({ minimum: 0, maximum: 10_000 }),
          lockup_seconds: Type.Integer({ minimum: 0 }),
          vesting_seconds: Type.Integer({ minimum: 0 }),
        },
        {
          additionalProperties: false,
          description:
            'a share of the supply (at most 3,000 bps) locked, then vested linearly (each period at most 4 years, together more than 0)',
        },
      ),
    ),
    dev_buy: Type.Optional(
      Type.Object(
        {
          amount_raw: Type.String({ pattern: '^[1-9][0-9]{0,77}$' }),
          recipient: Type.Optional(ref('GwAddress')),
          min_amount_out_raw: Type.Optional(Type.String({ pattern: '^[0-9]{1,78}$' })),
        },
        {
          additionalProperties: false,
          description: 'buy from the new pool in the same transaction with this much of the native asset (WETH-paired launches only)',
        },
      ),
    ),
    referrer: Type.Optional(
      Type.Ref('GwAddress', {
        description:
          'the integrator that referred the launch (recorded in the plan; not the creator, a reward recipient or a reserved address)',
      }),
    ),
    salt: Type.Optional(
      Type.String({
        pattern: '^0x[a-fA-F0-9]{64}$',
        description: 'a salt of your own (e.g. mined for an address); default a fresh random one',
      }),
    ),
  },
  { $id: 'LaunchPrepareRequest', additionalProperties: false },
)
