import type { Address, Hex } from 'viem'

// The parts of the swap spec's RoutePlan JSON that the router encoder reads (spec
// `000_f13919b75e53ad89.txt`: RoutePlan, SplitRoute, RouteLeg, LegData). Amounts are decimal
// strings on the wire, as in the spec; extra fields are allowed and ignored.

/** `LegData`, discriminated by `kind`. */
export type LegData =
  | { kind: 'v2_direct'; pool: Address; feeBps: number }
  | { kind: 'v3_direct'; pool: Address }
  | { kind: 'pancake_v3_direct'; pool: Address }
  | { kind: 'algebra_direct'; pool: Address }
  | { kind: 'hydrex'; deadline?: number }
  | { kind: 'univ4'; commands: Hex; inputs: Hex[]; deadline?: number }
  | { kind: 'curve'; pool: Address; i: number; j: number }
  | { kind: 'prop_amm'; router: Address; protocol: string }
  | { kind: 'dodo_v2'; pool: Address; baseToken: Address }
  | { kind: 'woofi'; router: Address }
  | { kind: 'univ2'; path: Address[]; deadline?: number }
  | { kind: 'univ3'; path: Hex; deadline?: number }
  | { kind: 'aerodrome_v2'; routes: { from: Address; to: Address; stable: boolean; factory: Address }[]; deadline?: number }

export type RouteLeg = {
  dex: string
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  minOut: string
  poolId?: string
  data: LegData
}

export type SplitRoute = { amountIn: string; legs: RouteLeg[] }

export type RoutePlan = {
  chainId: number
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  expectedAmountOut: string
  minAmountOut: string
  feeBps?: number
  slippageBps: number
  routes: SplitRoute[]
  blockNumber: number
  nativeIn?: boolean
  nativeOut?: boolean
}

/** `PermitPayload`: an EIP-2612 signature of the user for `tokenIn`, spender = the router. */
export type PermitPayload = { value: string; deadline: number; v: number; r: Hex; s: Hex }
