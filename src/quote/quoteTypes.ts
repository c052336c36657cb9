import type { LegData } from '../adapters/PoolAdapter.ts'
import type { QuoteRequest as WireQuoteRequest } from '../http/schemas/quote.ts'
import type { GasEstimate, RouteLeg, RouteMetadata, RoutePlan, SplitRoute } from '../http/schemas/routePlan.ts'

// The spec's (000_f13919b75e53ad89.txt) QuoteRequest and RoutePlan as the quote service takes and
// answers them, derived from the one definition: the TypeBox schemas in src/http/schemas/
// (`Static`). Amounts are decimal strings, as on the wire.

/** The spec's QuoteRequest (the body of POST /quote). */
export type QuoteRequest = WireQuoteRequest

/** A spec RouteLeg as the service emits it: always a `poolId`, and the LegData our adapters encode. */
export type QuoteRouteLeg = Omit<RouteLeg, 'poolId' | 'data'> & { poolId: string; data: LegData }

export type QuoteSplitRoute = Omit<SplitRoute, 'legs'> & { legs: QuoteRouteLeg[] }

/** The spec's RouteMetadata with the solver's `stoppedBy` and the `maxHopsSearched` always set. */
export type QuoteRouteMetadata = RouteMetadata & Required<Pick<RouteMetadata, 'stoppedBy' | 'maxHopsSearched'>>

/** The spec's RoutePlan, every optional part filled. */
export type QuoteRoutePlan = Omit<RoutePlan, 'routes' | 'metadata' | 'gasEstimate' | 'feeBps' | 'feeBreakdown' | 'nativeIn' | 'nativeOut'> &
  Required<Pick<RoutePlan, 'feeBps' | 'feeBreakdown' | 'nativeIn' | 'nativeOut'>> & {
    routes: QuoteSplitRoute[]
    metadata: QuoteRouteMetadata
    gasEstimate: Required<GasEstimate>
  }
