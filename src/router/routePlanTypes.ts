import type {
  LegData as SpecLegData,
  RouteLeg as SpecRouteLeg,
  RoutePlan as SpecRoutePlan,
  SplitRoute as SpecSplitRoute,
} from '../http/schemas/routePlan.ts'
import type { PermitPayload as SpecPermitPayload } from '../http/schemas/submit.ts'

// The parts of the spec's RoutePlan the router encoder reads, derived from the one definition:
// the TypeBox schemas in src/http/schemas/ (`Static`). The encoder never reads `dex` (the leg
// kind is in `data`), so it takes any label there.

/** The spec's `LegData`, discriminated by `kind`. */
export type LegData = SpecLegData

/** The spec's `RouteLeg`, with any `dex` label. */
export type RouteLeg = Omit<SpecRouteLeg, 'dex'> & { dex: string }

/** The spec's `SplitRoute`. */
export type SplitRoute = Omit<SpecSplitRoute, 'legs'> & { legs: RouteLeg[] }

/** The spec's `RoutePlan` (extra fields such as `gasEstimate` allowed and ignored). */
export type RoutePlan = Omit<SpecRoutePlan, 'routes'> & { routes: SplitRoute[] }

/** The spec's `PermitPayload`: an EIP-2612 signature of the caller for `tokenIn`, spender = the router. */
export type PermitPayload = SpecPermitPayload
