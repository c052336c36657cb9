import { Type } from 'typebox'
import { Address, AmountString, Bps, DexId, Hex, Int64 } from './scalars.ts'

// The spec's RoutePlan and its parts (§2), as /quote and /execute answer them. Response schemas:
// Fastify serializes through them, so a field missing here never reaches a client.

const closed = { additionalProperties: false } as const
const kind = <K extends string>(k: K) => Type.Literal(k)

/** `LegData`, discriminated by `kind`; every kind of the spec (legacy `univ2`/`univ3` included). */
export const LegData = Type.Union([
  Type.Object({ kind: kind('v2_direct'), pool: Address, feeBps: Bps }, closed),
  Type.Object({ kind: kind('v3_direct'), pool: Address }, closed),
  Type.Object({ kind: kind('pancake_v3_direct'), pool: Address }, closed),
  Type.Object({ kind: kind('algebra_direct'), pool: Address }, closed),
  Type.Object({ kind: kind('hydrex'), deadline: Type.Optional(Int64) }, closed),
  Type.Object({ kind: kind('univ4'), commands: Hex, inputs: Type.Array(Hex), deadline: Type.Optional(Int64) }, closed),
  Type.Object({ kind: kind('curve'), pool: Address, i: Type.Integer({ minimum: 0 }), j: Type.Integer({ minimum: 0 }) }, closed),
  Type.Object({
    kind: kind('prop_amm'),
    router: Address,
    protocol: Type.Union([kind('propswap'), kind('tessera'), kind('elfomofi'), kind('lunarbase'), kind('feltir')]),
  }, closed),
  Type.Object({ kind: kind('dodo_v2'), pool: Address, baseToken: Address }, closed),
  Type.Object({ kind: kind('woofi'), router: Address }, closed),
  Type.Object({ kind: kind('univ2'), path: Type.Array(Address, { minItems: 2 }), deadline: Type.Optional(Int64) }, closed),
  Type.Object({ kind: kind('univ3'), path: Hex, deadline: Type.Optional(Int64) }, closed),
  Type.Object({
    kind: kind('aerodrome_v2'),
    routes: Type.Array(Type.Object({ from: Address, to: Address, stable: Type.Boolean(), factory: Address }, closed), { minItems: 1 }),
    deadline: Type.Optional(Int64),
  }, closed),
])

export const RouteLeg = Type.Object({
  dex: DexId,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: AmountString,
  minOut: AmountString,
  poolId: Type.Optional(Type.String()),
  data: LegData,
}, closed)

export const SplitRoute = Type.Object({ amountIn: AmountString, legs: Type.Array(RouteLeg, { minItems: 1 }) }, closed)

export const GasEstimate = Type.Object({ gasUnits: Type.Integer({ minimum: 0 }), gasCostWei: Type.Optional(AmountString) }, closed)

export const FeeBreakdown = Type.Object({ protocolFeeAmount: AmountString, integratorFeeAmount: AmountString }, closed)

export const RouteCandidateMetadata = Type.Object({
  path: Type.Array(Address),
  dexes: Type.Array(DexId),
  projectedOut: AmountString,
  allocatedIn: AmountString,
  score: Type.Number(),
}, closed)

/** Extra properties allowed (spec); ours: `stoppedBy` ("converged" | "budget"), `stoppedIn` and `maxHopsSearched`. */
export const RouteMetadata = Type.Object({
  connectorsConsidered: Type.Array(Address),
  candidatePaths: Type.Integer({ minimum: 0 }),
  selectedPaths: Type.Integer({ minimum: 0 }),
  candidates: Type.Array(RouteCandidateMetadata),
  stoppedBy: Type.Optional(Type.String({ description: 'why the solve stopped: converged, or budget (timeBudgetMs ran out; the plan is the best found by then, still exact)' })),
  stoppedIn: Type.Optional(Type.Union([Type.Literal('search'), Type.Literal('probeSearch'), Type.Literal('gasPricing'), Type.Literal('evaluation'), Type.Literal('optimizer')], { description: 'with stoppedBy budget: the first phase the budget cut' })),
  maxHopsSearched: Type.Optional(Type.Integer({ minimum: 1, description: 'path depth searched: maxHops (default 3) capped at the deepest search, 4' })),
}, { additionalProperties: true })

export const RoutePlan = Type.Object({
  chainId: Type.Integer(),
  tokenIn: Address,
  tokenOut: Address,
  amountIn: AmountString,
  expectedAmountOut: AmountString,
  minAmountOut: AmountString,
  feeBps: Type.Optional(Bps),
  slippageBps: Bps,
  routes: Type.Array(SplitRoute),
  blockNumber: Type.Integer({ minimum: 0 }),
  gasEstimate: Type.Optional(GasEstimate),
  feeBreakdown: Type.Optional(FeeBreakdown),
  metadata: Type.Optional(RouteMetadata),
  nativeIn: Type.Optional(Type.Boolean()),
  nativeOut: Type.Optional(Type.Boolean()),
}, closed)
