import { type Static, Type } from 'typebox'
import type { SwapSchemaContext } from './swapComponents.ts'

// The spec's UpstreamQuote, CompareResponse, SplitResponse and SplitAllocation (§2), as
// /quote/compare and /quote/split answer them, plus the fields we add (each marked "extension"):
// the one definition of these types. They are components of the served document only when an
// upstream is configured (app.ts). What each field means: docs/upstreams.md.

const closed = { additionalProperties: false } as const
const AmountString = Type.Ref('AmountString')

/** Extension: a transaction an upstream built for the request's `taker`. */
export const UpstreamTransaction = Type.Object(
  {
    to: Type.Ref('Address'),
    data: Type.Ref('Hex'),
    value: Type.Ref('AmountString', { description: 'msg.value in wei: amountIn for a native input, else 0' }),
    gas: Type.Optional(Type.Ref('AmountString', { description: "the upstream's gas limit suggestion" })),
    allowanceTarget: Type.Optional(
      Type.Ref('Address', { description: 'the address to approve for tokenIn (not always `to`); absent for a native input' }),
    ),
    permit2: Type.Optional(
      Type.Unknown({
        description: "0x permit2 flow: the EIP-712 message the taker signs; the signature is appended to data (0x's documented flow)",
      }),
    ),
  },
  {
    $id: 'UpstreamTransaction',
    description: 'Extension: an executable transaction from the upstream, checked (to, data, value) before it is passed on',
    ...closed,
  },
)

export const UpstreamQuote = Type.Object(
  {
    sourceId: Type.String({
      description: 'the upstream: 0x, 1inch, kyberswap, odos, velora, openocean; `simulated:<id>` for a demo stand-in',
    }),
    outputAmount: Type.Ref('AmountString', { description: 'tokenOut the upstream pays the taker, smallest unit (its quote)' }),
    netOutput: Type.Ref('AmountString', {
      description: 'outputAmount minus the gas of its transaction in tokenOut (our gas price, our market rate), at least 0',
    }),
    gasEstimate: Type.Ref('AmountString', { description: "gas units of its transaction (the upstream's estimate)" }),
    transaction: Type.Optional(Type.Ref('UpstreamTransaction')),
  },
  { $id: 'UpstreamQuote', ...closed },
)
export type UpstreamQuote = Static<typeof UpstreamQuote, UpstreamSchemaContext>

export const CompareResponse = Type.Object(
  {
    local: Type.Union([Type.Ref('QuoteResponse'), Type.Null()], {
      description: 'our quote, issued like a /quote answer (its quoteId works on /submit); null when we cannot quote (localError says why)',
    }),
    localError: Type.Union([Type.String(), Type.Null()], { description: 'extension: why local is null' }),
    upstream: Type.Union(
      [
        Type.Object(
          {
            best: Type.Ref('UpstreamQuote', { description: 'the highest netOutput' }),
            alternates: Type.Array(Type.Ref('UpstreamQuote'), {
              description: 'the other upstreams that answered, by netOutput, highest first',
            }),
            errors: Type.Array(Type.String(), { description: '`<sourceId>: <why>` for each upstream that gave no quote' }),
          },
          closed,
        ),
        Type.Null(),
      ],
      { description: 'null when no upstream gave a quote (upstreamError says why)' },
    ),
    upstreamError: Type.Union([Type.String(), Type.Null()], { description: 'set exactly when upstream is null' }),
    netOfGas: Type.Boolean({
      description:
        'extension: false when gas could not be priced in tokenOut (no WETH route on our market): netOutput then equals outputAmount',
    }),
  },
  { $id: 'CompareResponse', ...closed },
)
export type CompareResponse = Static<typeof CompareResponse, UpstreamSchemaContext>

export const SplitAllocation = Type.Object(
  {
    sourceId: Type.String({ description: '`local` (our solver) or an upstream id' }),
    amountIn: AmountString,
    expectedOutput: Type.Ref('AmountString', {
      description:
        "tokenOut for amountIn net of this source's gas: its own answer for exactly amountIn when it gave one, else the chord between its samples (never above a concave curve)",
    }),
    hasExecutableQuote: Type.Boolean({
      description: 'local: a quoteId for exactly amountIn; upstream: a transaction for exactly amountIn (needs taker)',
    }),
    outputAmount: Type.Ref('AmountString', { description: 'extension: tokenOut the source pays for amountIn, before gas' }),
    gasEstimate: Type.Ref('AmountString', { description: 'extension: gas units of its transaction' }),
    quoteId: Type.Optional(Type.String({ description: 'extension, local only: the quote to /submit' })),
    expiresAt: Type.Optional(Type.Ref('Int64', { description: 'extension, local only: when that quote expires (Unix ms)' })),
    transaction: Type.Optional(Type.Ref('UpstreamTransaction')),
  },
  { $id: 'SplitAllocation', ...closed },
)
export type SplitAllocation = Static<typeof SplitAllocation, UpstreamSchemaContext>

export const SplitResponse = Type.Object(
  {
    strategy: Type.Literal('split-aggregator'),
    totalInput: AmountString,
    totalOutput: Type.Ref('AmountString', { description: "Σ expectedOutput: net of every used source's gas" }),
    singleBestOutput: Type.Ref('AmountString', { description: "the best single source's answer for the whole amount, net of its gas" }),
    singleBestSource: Type.String({ description: 'that source; "" when no source quoted the whole amount' }),
    improvement: Type.Object(
      {
        absolute: Type.Ref('AmountString', {
          description: 'totalOutput - singleBestOutput (never negative: a split worse than the single best is never returned)',
        }),
        bps: Type.Number({ minimum: 0, description: 'the same in basis points of singleBestOutput (2 decimals)' }),
      },
      closed,
    ),
    allocations: Type.Array(Type.Ref('SplitAllocation'), { description: 'amountIn sums to totalInput; empty when no source could quote' }),
    errors: Type.Array(Type.String(), { description: '`<sourceId>: <why>` for each source or sample that failed' }),
    fetchedAt: Type.Ref('Int64', { description: 'Unix ms when the last quote used was received' }),
    netOfGas: Type.Boolean({ description: 'extension: false when gas could not be priced in tokenOut (amounts are then gross)' }),
    samples: Type.Array(
      Type.Object(
        {
          sourceId: Type.String(),
          asked: Type.Integer({ minimum: 0, description: 'sizes asked for (within its rate limit)' }),
          answered: Type.Integer({ minimum: 0 }),
        },
        closed,
      ),
      { description: 'extension: the sampled curve behind each source' },
    ),
  },
  { $id: 'SplitResponse', ...closed },
)
export type SplitResponse = Static<typeof SplitResponse, UpstreamSchemaContext>

/** The components /quote/compare and /quote/split add to the document (registered only with upstreams). */
export const upstreamComponents = { UpstreamTransaction, UpstreamQuote, CompareResponse, SplitAllocation, SplitResponse }

/** The context `Static` resolves these schemas' `Type.Ref` names in. */
export type UpstreamSchemaContext = SwapSchemaContext & typeof upstreamComponents
