import { executeRequestSchema, ExecuteResponse } from './execute.ts'
import { HealthResponse } from './health.ts'
import { MarketPoolResponse } from './marketPool.ts'
import { ReadyResponse } from './ready.ts'
import { quoteRequestSchema, QuoteResponse } from './quote.ts'
import { FeeBreakdown, GasEstimate, LegData, RouteCandidateMetadata, RouteLeg, RouteMetadata, RoutePlan, SplitRoute } from './routePlan.ts'
import {
  Address,
  AmountString,
  Bps,
  Bytes32,
  DexId,
  ErrorBody,
  Hex,
  Int64,
  PositiveUint256String,
  RateLimitedBody,
  Uint256String,
} from './scalars.ts'
import { PermitPayload, submitRequestSchema, SubmitResponse } from './submit.ts'
import type { SwapDeployment } from './SwapDeployment.ts'

/** The components that are the same on every deployment (the spec's types and our answers). */
const sharedComponents = {
  Address,
  Hex,
  Bytes32,
  AmountString,
  Uint256String,
  PositiveUint256String,
  Bps,
  Int64,
  DexId,
  LegData,
  RouteLeg,
  SplitRoute,
  GasEstimate,
  FeeBreakdown,
  RouteCandidateMetadata,
  RouteMetadata,
  RoutePlan,
  PermitPayload,
  QuoteResponse,
  SubmitResponse,
  ExecuteResponse,
  HealthResponse,
  ReadyResponse,
  MarketPoolResponse,
  Error: ErrorBody,
  RateLimitError: RateLimitedBody,
}

/**
 * Every schema the swap surface validates or answers with, keyed by its `$id`: the app registers
 * each one (`fastify.addSchema`), the routes and the other schemas reference them by name
 * (`Type.Ref('RoutePlan')`), and `GET /openapi.json` lists them under `components.schemas`. The
 * request schemas are built for `deployment` (its chain, router, WETH and fee bound), so the
 * served document says exactly what this server accepts.
 *
 * @example
 * const components = swapComponents({ chainId: 8453, weth, router, maxFeeBps: 10_000 })
 * // → { …shared components, QuoteRequest, SubmitRequest, ExecuteRequest }, each with its $id
 * for (const schema of Object.values(components)) fastify.addSchema(schema)
 * // each is now resolvable as Type.Ref('<its $id>')
 */
export function swapComponents(deployment: SwapDeployment) {
  return {
    ...sharedComponents,
    QuoteRequest: quoteRequestSchema(deployment),
    SubmitRequest: submitRequestSchema(deployment),
    ExecuteRequest: executeRequestSchema(deployment),
  }
}

/** The context `Static` resolves `Type.Ref` names in: `Static<typeof RoutePlan, SwapSchemaContext>`. */
export type SwapSchemaContext = ReturnType<typeof swapComponents>
