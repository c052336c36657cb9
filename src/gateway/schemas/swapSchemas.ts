import { Type } from 'typebox'

const ref = (id: string) => Type.Ref(id)
const RawAmount = Type.String({
  pattern: '^[0-9]{1,78}$',
  description: 'an amount in base units, in decimal (more than 0 and below 2^256, else invalid_amount)',
})

/** `POST /swaps/quote`'s body. */
export const SwapQuoteRequest = Type.Object(
  {
    chain_id: Type.Integer({ minimum: 1, description: 'a chain this gateway serves (see /config)' }),
    wallet: ref('GwAddress'),
    token_in: Type.String({ pattern: '^0x[a-fA-F0-9]{40}$', description: 'the token sold; 0xEeee…EEeE for the native asset' }),
    token_out: Type.String({ pattern: '^0x[a-fA-F0-9]{40}$', description: 'the token bought; 0xEeee…EEeE for the native asset' }),
    amount_in: RawAmount,
    slippage_bps: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 5_000, description: 'the most the output may fall below the quote, in bps (default 50)' }),
    ),
    max_price_impact_bps: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000,
        description: 'refuse a quote that moves the price more than this (default 1500): quote_unavailable',
      }),
    ),
  },
  { $id: 'SwapQuoteRequest', additionalProperties: false },
)

/** A swap quote: the reviewed limits a prepared swap is held to (min out, price impact, expiry). */
export const SwapQuoteSchema = Type.Object(
  {
    quote_id: Type.String({ pattern: '^quote_[0-9a-z]{26}$' }),
    chain_id: Type.Integer(),
    wallet: ref('GwAddress'),
    token_in: ref('GwAddress'),
    token_out: ref('GwAddress'),
    amount_in: ref('GwAmount'),
    amount_out: ref('GwAmount'),
    min_amount_out: Type.String({ pattern: '^[0-9]+$', description: 'the swap reverts below this output (amount_out less slippage_bps)' }),
    slippage_bps: Type.Integer(),
    price_impact_bps: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "how far the trade's average price is below the marginal price of a trade 1,000 times smaller; null when that one has no route",
    }),
    route: Type.Array(
      Type.Object(
        { amount_in: ref('GwAmount'), pools: Type.Array(Type.String()), dexes: Type.Array(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    gas_units: Type.Integer({ minimum: 0 }),
    as_of_block: Type.Integer(),
    expires_at: Type.String({ format: 'date-time', description: 'prepare before this time, else stale_quote' }),
    permit: Type.Union(
      [
        Type.Object(
          {
            typed_data: Type.Object(
              {
                types: Type.Record(Type.String(), Type.Array(Type.Object({ name: Type.String(), type: Type.String() }))),
                primaryType: Type.Literal('Permit'),
                domain: Type.Object({
                  name: Type.String(),
                  version: Type.String(),
                  chainId: Type.Integer(),
                  verifyingContract: ref('GwAddress'),
                }),
                message: Type.Object({
                  owner: ref('GwAddress'),
                  spender: ref('GwAddress'),
                  value: ref('GwAmount'),
                  nonce: ref('GwAmount'),
                  deadline: ref('GwAmount'),
                }),
              },
              {
                description: 'EIP-712 typed data as eth_signTypedData_v4 takes it (its standard member names, integers as decimal strings)',
              },
            ),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          "the EIP-2612 permit to sign instead of approving the router (spender the router, value amount_in, the wallet's nonce now); null for the native asset, a token without a published permit domain, or an allowance that already covers amount_in",
      },
    ),
  },
  { $id: 'SwapQuote', additionalProperties: false },
)

export const SwapQuoteResponse = Type.Object(
  { data: ref('SwapQuote'), meta: ref('Meta') },
  { $id: 'SwapQuoteResponse', additionalProperties: false },
)

/** `POST /swaps/prepare`'s body: the quote, and the wallet that will sign (the quote's). */
export const SwapPrepareRequest = Type.Object(
  {
    quote_id: Type.String({ minLength: 1, maxLength: 64 }),
    wallet: ref('GwAddress'),
    permit: Type.Optional(
      Type.Object(
        {
          value: Type.String({ pattern: '^[0-9]{1,78}$', description: "the value signed (at least the quote's amount_in)" }),
          deadline: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'the deadline signed, Unix seconds' }),
          signature: Type.String({ pattern: '^0x[0-9a-fA-F]{130}$', description: 'the 65-byte signature (r, s, v) of the typed data' }),
        },
        {
          additionalProperties: false,
          description:
            "the wallet's EIP-2612 permit of the input token to the router (the quote's permit.typed_data, signed): no approval needed",
        },
      ),
    ),
  },
  { $id: 'SwapPrepareRequest', additionalProperties: false },
)
