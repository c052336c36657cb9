import { Type } from 'typebox'

/**
 * `GET /market/pools/{poolId}`: one pool as the solver priced it at a recent block, with the block
 * it was read at, so a plan that paid other than it said can be set beside the chain's state at
 * its `blockNumber` (the back-to-back soak does: bench/README.md). The state is the solver's wire
 * input (docs/solver-wire-format.md): public chain data, nothing of any client's.
 */
export const MarketPoolResponse = Type.Object(
  {
    poolId: Type.String({ description: 'the pool address, or the bytes32 pool id on a singleton manager (lowercase)' }),
    dex: Type.String({ description: 'the spec DexId' }),
    blockNumber: Type.Integer({ minimum: 0, description: "the block asked about (default: the market's block)" }),
    readAtBlock: Type.Integer({
      minimum: 0,
      description: "the block the state below was read at: the pool's last change at or before `blockNumber` as the market saw it",
    }),
    tokens: Type.Array(Type.String(), { description: "the pool's tokens in its own order" }),
    ref: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'what the market knows to read the pool (kind, emitter, the V4 or Infinity pool key): enough to read the same pool from the chain',
      },
    ),
    state: Type.Object(
      {},
      { additionalProperties: true, description: "the solver's wire input for the pool (docs/solver-wire-format.md)" },
    ),
  },
  { $id: 'MarketPoolResponse', additionalProperties: false },
)

export const MarketPoolParams = Type.Object(
  {
    poolId: Type.String({ pattern: '^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$', description: 'a pool address, or a bytes32 pool id' }),
  },
  { additionalProperties: false },
)

export const MarketPoolQuery = Type.Object(
  {
    // A query string is text, and this service never coerces types: a decimal of at most 15 digits.
    blockNumber: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,15}$',
        description: "a recent block, decimal (the last 16 versions of each pool are kept); default the market's block",
      }),
    ),
  },
  { additionalProperties: false },
)
