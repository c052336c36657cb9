import { type Static, Type } from 'typebox'
import type { SwapSchemaContext } from './swapComponents.ts'

// The spec's RoutePlan and its parts (§2), as /quote and /execute answer them: the one definition
// of these types. Fastify serializes responses through these schemas (a field missing here never
// reaches a client), `GET /openapi.json` lists each as a component, and the TypeScript types of the
// quote service and the router encoder are derived from them (`Static`).

const closed = { additionalProperties: false } as const
const kind = <K extends string>(k: K) => Type.Literal(k)
const Address = Type.Ref('Address')
const AmountString = Type.Ref('AmountString')
const Hex = Type.Ref('Hex')
const Int64 = Type.Ref('Int64')

/** `LegData`, discriminated by `kind`; every kind of the spec (legacy `univ2`/`univ3` included). */
export const LegData = Type.Union(
  [
    Type.Object({ kind: kind('v2_direct'), pool: Address, feeBps: Type.Ref('Bps') }, closed),
    Type.Object({ kind: kind('v3_direct'), pool: Address }, closed),
    Type.Object({ kind: kind('pancake_v3_direct'), pool: Address }, closed),
    Type.Object({ kind: kind('algebra_direct'), pool: Address }, closed),
    Type.Object({ kind: kind('hydrex'), deadline: Type.Optional(Int64) }, closed),
    Type.Object({ kind: kind('univ4'), commands: Hex, inputs: Type.Array(Hex), deadline: Type.Optional(Int64) }, closed),
    Type.Object(
      {
        kind: kind('curve'),
        pool: Address,
        i: Type.Integer({ minimum: 0, description: "tokenIn's index in the pool's coins (exchange's i; the router takes 0..7)" }),
        j: Type.Integer({ minimum: 0, description: "tokenOut's index in the pool's coins (exchange's j; 0..7, not i)" }),
        indexType: Type.Optional(
          Type.Union([kind('int128'), kind('uint256')], {
            description:
              "the index type of the pool template's exchange: int128 (StableSwap: legacy plain, meta, NG; the default when absent) or uint256 (CryptoSwap: twocrypto-ng); an addition to the spec's {pool, i, j}",
          }),
        ),
        underlying: Type.Optional(
          Type.Boolean({
            description:
              "true: the meta pool's exchange_underlying(i, j, amountIn, minOut), i and j indexes in its underlying coins (its own coin, then the base pool's), int128 only (never beside indexType uint256); absent or false: exchange; an addition to the spec's {pool, i, j}",
          }),
        ),
      },
      {
        ...closed,
        description:
          "One exchange(i, j, amountIn, minOut) on a Curve pool (StableSwap: int128 indexes; CryptoSwap: uint256, said by indexType), paid to the router; the leg's minOut is the pool's min_dy (docs/route-legs.md)",
      },
    ),
    Type.Object(
      {
        kind: kind('prop_amm'),
        router: Address,
        protocol: Type.Union([kind('propswap'), kind('tessera'), kind('elfomofi'), kind('lunarbase'), kind('feltir')]),
      },
      closed,
    ),
    Type.Object(
      { kind: kind('dodo_v2'), pool: Address, baseToken: Address },
      {
        ...closed,
        description:
          "A DODO V2 PMM pool (DVM, DSP or DPP): the router sends amountIn to the pool, then sellBase(router) when tokenIn is baseToken, sellQuote(router) when tokenOut is; the pool's maintainer fee is its rate for the transaction's sender (tx.origin); the leg's minOut is enforced on what reached the router (docs/route-legs.md)",
      },
    ),
    Type.Object(
      { kind: kind('woofi'), router: Address },
      {
        ...closed,
        description:
          "One swap(tokenIn, tokenOut, amountIn, minOut, router, 0) on WOOFi's WooRouterV2 (router), which moves the input into its WooPPV2 vault; base to base is one call through the vault's quote token; the leg's minOut is the vault's minToAmount (docs/route-legs.md)",
      },
    ),
    Type.Object({ kind: kind('univ2'), path: Type.Array(Address, { minItems: 2 }), deadline: Type.Optional(Int64) }, closed),
    Type.Object({ kind: kind('univ3'), path: Hex, deadline: Type.Optional(Int64) }, closed),
    Type.Object(
      {
        kind: kind('aerodrome_v2'),
        routes: Type.Array(Type.Object({ from: Address, to: Address, stable: Type.Boolean(), factory: Address }, closed), { minItems: 1 }),
        deadline: Type.Optional(Int64),
      },
      closed,
    ),
    // Added in 0.2.0 (docs/route-legs.md): PancakeSwap Infinity CL, one exact-input swap on a PoolKey
    // through the Infinity Vault's lock.
    Type.Object(
      {
        kind: kind('pancake_infinity_cl'),
        poolKey: Type.Object(
          {
            currency0: Address,
            currency1: Address,
            hooks: Address,
            poolManager: Address,
            fee: Type.Integer({ minimum: 0, maximum: 16_777_215, description: 'LP fee in pips (uint24; 0x800000 flags a dynamic fee)' }),
            parameters: Type.String({
              pattern: '^0x[0-9a-fA-F]{64}$',
              description: 'bytes32: hooks registration bitmap (bits 0-15) and tick spacing (bits 16-39)',
            }),
          },
          closed,
        ),
      },
      closed,
    ),
    // Added in 0.2.0 (docs/route-legs.md): one swap given in on a pool of a Balancer V2 Vault (GYROSCOPE_ECLP).
    Type.Object(
      {
        kind: kind('balancer_vault'),
        vault: Address,
        poolId: Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: "bytes32: the pool's id in the Vault" }),
      },
      {
        ...closed,
        description:
          "One Vault.swap given in (SingleSwap {poolId, GIVEN_IN, tokenIn, tokenOut, amountIn}) paid from and to the router, the leg's minOut as the Vault's limit (docs/route-legs.md)",
      },
    ),
    // Added in 0.2.0 (docs/route-legs.md): Maverick V2, one exact-input swap on the pool, paid in
    // its callback.
    Type.Object(
      {
        kind: kind('maverick_v2'),
        pool: Address,
        tokenAIn: Type.Boolean({ description: "whether tokenIn is the pool's token A (A in moves the price and the active tick up)" }),
        tickLimit: Type.Integer({
          minimum: -2_147_483_648,
          maximum: 2_147_483_647,
          description:
            'int32: the furthest tick the walk may swap in (A in: up to it; B in: down to it); a walk stopped there reverts the leg',
        }),
      },
      {
        ...closed,
        description:
          "One swap(router, {amountIn, tokenAIn, exactOutput: false, tickLimit}, data) on a Maverick V2 pool, paid in maverickV2SwapCallback (only the pool being swapped, only the leg's exact input); the leg's minOut is checked on what reached the router (docs/route-legs.md)",
      },
    ),
  ],
  { $id: 'LegData', description: 'How the router runs the leg, discriminated by kind (docs/route-legs.md)' },
)
export type LegData = Static<typeof LegData, SwapSchemaContext>

export const RouteLeg = Type.Object(
  {
    dex: Type.Ref('DexId'),
    tokenIn: Address,
    tokenOut: Address,
    amountIn: AmountString,
    minOut: AmountString,
    poolId: Type.Optional(Type.String()),
    data: Type.Ref('LegData'),
  },
  { $id: 'RouteLeg', ...closed },
)
export type RouteLeg = Static<typeof RouteLeg, SwapSchemaContext>

export const SplitRoute = Type.Object(
  { amountIn: AmountString, legs: Type.Array(Type.Ref('RouteLeg'), { minItems: 1 }) },
  { $id: 'SplitRoute', ...closed },
)
export type SplitRoute = Static<typeof SplitRoute, SwapSchemaContext>

export const GasEstimate = Type.Object(
  { gasUnits: Type.Integer({ minimum: 0 }), gasCostWei: Type.Optional(AmountString) },
  { $id: 'GasEstimate', ...closed },
)
export type GasEstimate = Static<typeof GasEstimate, SwapSchemaContext>

export const FeeBreakdown = Type.Object(
  { protocolFeeAmount: AmountString, integratorFeeAmount: AmountString },
  { $id: 'FeeBreakdown', ...closed },
)

export const RouteCandidateMetadata = Type.Object(
  {
    path: Type.Array(Address),
    dexes: Type.Array(Type.Ref('DexId')),
    projectedOut: AmountString,
    allocatedIn: AmountString,
    score: Type.Number(),
  },
  { $id: 'RouteCandidateMetadata', ...closed },
)

/** Which leg of a plan a metadata entry is about: its route's and its own index, and its pool. */
const legOfPlan = { route: Type.Integer({ minimum: 0 }), leg: Type.Integer({ minimum: 0 }), poolId: Type.String() }

/** Extra properties allowed (spec); ours: `stoppedBy`, `stoppedIn`, `maxHopsSearched`, `upperBound`, `gapBps`, `sampledLegs` and `takerPricedLegs`. */
export const RouteMetadata = Type.Object(
  {
    connectorsConsidered: Type.Array(Address),
    candidatePaths: Type.Integer({ minimum: 0 }),
    selectedPaths: Type.Integer({ minimum: 0 }),
    candidates: Type.Array(Type.Ref('RouteCandidateMetadata')),
    stoppedBy: Type.Optional(
      Type.Union([kind('converged'), kind('budget')], {
        description:
          'why the solve stopped: it converged, or timeBudgetMs ran out (in any phase, search included; the plan is the best found by then, exact, never below the best single candidate)',
      }),
    ),
    stoppedIn: Type.Optional(
      Type.Union(
        [kind('search'), kind('probeSearch'), kind('gasPricing'), kind('evaluation'), kind('bound'), kind('optimizer'), kind('resplit')],
        { description: 'with stoppedBy budget: the first phase the budget cut' },
      ),
    ),
    maxHopsSearched: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'the path depth searched: maxHops (default 3) capped at the deepest search, 4; 0 for a wrap or unwrap (nothing searched)',
      }),
    ),
    // Certified upper bound on what any routing of amountIn over the venues this quote may use could
    // pay, raw tokenOut before fees and gas (the convex bound, docs/solver-optimizer.md).
    upperBound: Type.Optional(AmountString),
    gapBps: Type.Optional(
      Type.Number({
        description:
          'how far the routes fall short of upperBound: 10^4 * (upperBound - routed output) / upperBound, the routed output being before the integrator fee',
      }),
    ),
    sampledLegs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ...legOfPlan,
            dex: Type.Ref('DexId'),
            marginBps: Type.Integer({ minimum: 0, maximum: 10_000 }),
            sampledOut: AmountString,
            quotedOut: AmountString,
            quotedAtBlock: Type.Optional(Type.Integer({ minimum: 0 })),
          },
          closed,
        ),
        {
          description:
            "the legs on venues priced by sampling their quote views (prop AMMs): the sampled estimate (margin off), the venue's own quote at the leg's input when the plan was answered (the plan's amount) and its block; each leg's minOut leaves the venue's margin for a re-pricing (docs/prop-amms.md)",
        },
      ),
    ),
    takerPricedLegs: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ...legOfPlan,
            mtFeeRate: AmountString,
            marketMtFeeRate: AmountString,
          },
          closed,
        ),
        {
          description:
            "with a taker: the DODO_V2 legs priced at the taker's own maintainer rate (18 decimals; the pools charge the rate their fee-rate model gives the transaction's sender) where it differs from the anonymous trader's rate the market carries (marketMtFeeRate); the plan pays expectedAmountOut when the taker sends it (docs/dex-kinds.md)",
        },
      ),
    ),
  },
  { $id: 'RouteMetadata', additionalProperties: true },
)
export type RouteMetadata = Static<typeof RouteMetadata, SwapSchemaContext>

export const RoutePlan = Type.Object(
  {
    chainId: Type.Integer(),
    tokenIn: Address,
    tokenOut: Address,
    amountIn: AmountString,
    expectedAmountOut: AmountString,
    minAmountOut: AmountString,
    feeBps: Type.Optional(Type.Ref('Bps')),
    slippageBps: Type.Ref('Bps'),
    routes: Type.Array(Type.Ref('SplitRoute')),
    blockNumber: Type.Integer({ minimum: 0 }),
    gasEstimate: Type.Optional(Type.Ref('GasEstimate')),
    feeBreakdown: Type.Optional(Type.Ref('FeeBreakdown')),
    metadata: Type.Optional(Type.Ref('RouteMetadata')),
    nativeIn: Type.Optional(Type.Boolean()),
    nativeOut: Type.Optional(Type.Boolean()),
  },
  { $id: 'RoutePlan', ...closed },
)
export type RoutePlan = Static<typeof RoutePlan, SwapSchemaContext>
