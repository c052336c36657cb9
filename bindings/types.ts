/**
 * The solver's TypeScript interface, identical over both backends. Amounts are decimal strings on
 * this boundary (see docs/solver-wire-format.md); callers convert to and from `bigint`.
 */

/** A spec `DexId`. */
export type DexId =
  | 'UNIV2'
  | 'UNIV3'
  | 'UNIV4'
  | 'AERODROME_V2LIKE'
  | 'AERODROME_CL'
  | 'PANCAKE_V2'
  | 'PANCAKE_V3'
  | 'PANCAKE_INFINITY_CL'
  | 'HYDREX'
  | 'QUICKSWAP_V4'
  | 'ALIEN_BASE_V3'
  | 'CURVE'
  | 'PROPSWAP'
  | 'TESSERA'
  | 'ELFOMOFI'
  | 'LUNARBASE'
  | 'FELTIR'
  | 'DODO_V2'
  | 'WOOFI'
  | 'GYROSCOPE_ECLP'
  | 'MAVERICK_V2'

/** A `0x`-prefixed 20-byte address. */
export type Address = `0x${string}`
/** An unsigned integer in decimal. */
export type AmountString = string

/** Solver construction options. */
export type SolverConfig = {
  /** The wrapped native token (WETH on Base); gas is priced through it. */
  nativeToken: Address
  /** Intermediate tokens allowed in paths; default: the 8 best-connected tokens plus nativeToken. */
  connectors?: Address[]
  /** Default optimizer budget in ms (1..10000). */
  defaultTimeBudgetMs?: number
  /** Candidate paths kept for the split optimizer. */
  maxCandidates?: number
  /** Best pools kept per token pair when building paths. */
  poolsPerEdge?: number
}

export type ConstantProductState = { model: 'constant_product'; reserves: [AmountString, AmountString] }
export type SolidlyState = {
  model: 'solidly'
  reserves: [AmountString, AmountString]
  stable: boolean
  /** Token decimals as counts (6, 18, ...). */
  decimals: [number, number]
  feeBps: number
}
export type ConcentratedState = {
  model: 'concentrated'
  sqrtPriceX96: AmountString
  tick: number
  liquidity: AmountString
  tickSpacing: number
  /** V3 forks: pool fee; singletons: lp fee; Algebra: the fee the plugin will charge. */
  feePips: number
  /** Singletons only: slot0's packed protocol fee (12 bits per direction, low bits zeroForOne). */
  protocolFee?: number
  /** Slipstream with its dynamic swap-fee module: the fee follows the tick (docs/solver-wire-format.md). */
  dynamicFee?: SlipstreamDynamicFee
  /** Every initialized tick, ascending, with its signed liquidityNet as a decimal string. */
  ticks: [number, string][]
}
/** A Slipstream pool's dynamic fee: min(base + K·|tick − twapTick| / 1e6, cap), else the spacing's fee above 10 %. */
export type SlipstreamDynamicFee = {
  /** The module's base fee for the pool: 0 none (the spacing's fee), 420 zero. */
  baseFeePips: number
  spacingFeePips: number
  /** Effective K, decimal string. */
  scalingFactor: AmountString
  feeCapPips: number
  /** TWAP tick for the block the quote executes in; null: the dynamic part is off. */
  twapTick: number | null
}
export type SampledState = {
  model: 'sampled'
  marginBps: number
  zeroForOne: [AmountString, AmountString][]
  oneForZero: [AmountString, AmountString][]
}
/** A sampled venue of 2 to 4 tokens (a tricrypto-ng pool), samples per ordered pair of its token positions; traded through one pair per plan (docs/solver-wire-format.md). */
export type SampledPairsState = {
  model: 'sampled'
  marginBps: number
  pairs: { tokenIn: number; tokenOut: number; samples: [AmountString, AmountString][] }[]
}
/** One LunarBase pool as the executing address sees it at the block a trade runs in (docs/solver-wire-format.md); tokens X, then Y. */
export type LunarbaseState = {
  model: 'lunarbase'
  anchorPrice: AmountString
  feeAskX24: AmountString
  feeBidX24: AmountString
  maxPunishmentX24: AmountString
  reserveX: AmountString
  reserveY: AmountString
  /** 1 when the pool whitelists the executing address, else its `blacklistFeeMultiplier`. */
  feeMultiplier: AmountString
  latestUpdateBlock: AmountString
  blockDelay: AmountString
  /** The block the trade executes in: the pool is fresh while block < latestUpdateBlock + blockDelay. */
  block: AmountString
  paused: boolean
}
/** One WOOFi vault (docs/solver-wire-format.md): the quote token first, then 1 to 3 bases. */
export type WoofiState = {
  model: 'woofi'
  tokens: {
    decimals: number
    balance: AmountString
    reserve: AmountString
    feeRate: AmountString
    maxGamma: AmountString
    maxNotional: AmountString
  }[]
  oracles: {
    price: AmountString
    coeff: AmountString
    spread: AmountString
    refPrice: AmountString
    cloPreferred: boolean
    rangeMin: AmountString
    rangeMax: AmountString
  }[]
  paused: boolean
  unclaimedFee: AmountString
  bound: AmountString
  oracleTimestamp: AmountString
  staleDuration: AmountString
  timestamp: AmountString
}
/** One Curve StableSwap pool, 2 to 4 coins (docs/solver-wire-format.md, `stableswap`). */
export type StableSwapState = {
  model: 'stableswap'
  /** `original`: curve-contract's 3pool-era template (A unscaled, its own `admin_fee`). */
  template: 'ng' | 'legacy' | 'original'
  /** The pool's own balances per coin (admin share left out). */
  balances: AmountString[]
  /** NG `stored_rates()`; legacy 10^(36 − decimals). */
  rates: AmountString[]
  /** Out of 10^10. */
  fee: AmountString
  /** NG's off-peg multiplier, out of 10^10; 0 for legacy. */
  offpegFeeMultiplier: AmountString
  /** A as stored (× 100; the original template's A itself), and the ramp's ends (seconds). */
  initialA: AmountString
  futureA: AmountString
  initialATime: AmountString
  futureATime: AmountString
  /** The timestamp A is taken at: the block the swap executes in. */
  timestamp: AmountString
  /** The original template's `admin_fee()`, out of 10^10 (required there, absent elsewhere). */
  adminFee?: AmountString
  /**
   * A legacy meta pool only (its tokens are then its coin and the base pool's coins): its legacy
   * or original base pool's state in the same fields, the base LP token's `totalSupply()`, and the base pool's
   * address (the market refuses the base pool as a venue of its own while the meta pool holds it).
   */
  base?: Omit<StableSwapState, 'model' | 'base' | 'baseSupply' | 'basePool' | 'baseVirtualPrice' | 'baseCacheUpdated'>
  baseSupply?: AmountString
  basePool?: string
  /**
   * A pre-factory meta pool's cache of its base pool's virtual price (`base_virtual_price()`,
   * `base_cache_updated()`, both or neither): priced with while `timestamp ≤ baseCacheUpdated + 600`.
   */
  baseVirtualPrice?: AmountString
  baseCacheUpdated?: AmountString
}
/** One DODO V2 PMM pool (docs/solver-wire-format.md `dodo_pmm`): tokens base, then quote; 18-decimal fixed point. */
export type DodoPmmState = {
  model: 'dodo_pmm'
  variant: 'dvm' | 'dsp' | 'dpp'
  i: AmountString
  k: AmountString
  baseReserve: AmountString
  quoteReserve: AmountString
  baseTarget: AmountString
  quoteTarget: AmountString
  /** 0 one, 1 above one, 2 below one. */
  rState: number
  lpFeeRate: AmountString
  mtFeeRate: AmountString
}
/** One Gyroscope E-CLP on a Balancer V2 Vault (docs/solver-wire-format.md): amounts and 18-decimal values unsigned, the E-CLP's parameters signed (18 and 38 decimals). */
export type GyroEclpState = {
  model: 'gyro_eclp'
  balances: [AmountString, AmountString]
  scalingFactors: [AmountString, AmountString]
  swapFee: AmountString
  params: { alpha: string; beta: string; c: string; s: string; lambda: string }
  derived: {
    tauAlphaX: string
    tauAlphaY: string
    tauBetaX: string
    tauBetaY: string
    u: string
    v: string
    w: string
    z: string
    dSq: string
  }
}
/** One Maverick V2 pool (docs/solver-wire-format.md `maverick_v2`): tokens A, then B; reserves on the 18-decimal scale. */
export type MaverickV2State = {
  model: 'maverick_v2'
  tickSpacing: number
  tokenScales: [AmountString, AmountString]
  fees: [AmountString, AmountString]
  protocolFeeRatioD3: number
  activeTick: number
  /** `[tick, reserveA, reserveB]`, each tick once; ticks not listed are empty. */
  ticks: [number, AmountString, AmountString][]
}
export type PoolStateInput =
  | ConstantProductState
  | SolidlyState
  | ConcentratedState
  | SampledState
  | SampledPairsState
  | WoofiState
  | StableSwapState
  | DodoPmmState
  | GyroEclpState
  | LunarbaseState
  | MaverickV2State

/** One pool of the market. */
export type PoolInput = {
  /** Address, or bytes32 pool id on a singleton manager. */
  id: string
  dex: DexId
  /** token0, token1 (`stableswap` and `sampled` by `pairs`: the pool's coins in its order, 2 to 4). */
  tokens: Address[]
  state: PoolStateInput
}

/** What the solver is asked. */
export type SolverQuoteRequest = {
  tokenIn: Address
  tokenOut: Address
  amountIn: AmountString
  slippageBps: number
  maxHops?: number
  splitEnabled?: boolean
  enforcePoolDisjoint?: boolean
  allowedDexes?: DexId[]
  /** Gas price in wei used to net gas from the output; absent or "0": not netted. */
  gasPriceWei?: AmountString
  timeBudgetMs?: number
  /** With true, the plan's `metadata.phaseMs` gives the solver's time per phase (off by default: a plan's bytes depend on its inputs alone). */
  timePhases?: boolean
  /** This request's own state of some pools, for it alone (the market is unchanged): see `SolverPoolOverride`. */
  poolOverrides?: SolverPoolOverride[]
}

/**
 * A DODO_V2 pool's maintainer rate (18 decimals, at most 10^18) for the request's sender: the pools
 * charge the rate their fee-rate model gives `tx.origin`, the market carries the anonymous trader's
 * (docs/dex-kinds.md, "DODO_V2"). An unknown pool, a pool of another kind, a pool named twice or a
 * rate above one is refused as invalid input (`field: 'poolOverrides'`).
 */
export type SolverPoolOverride = { poolId: string; mtFeeRate: AmountString }

export type SolverLeg = {
  dex: DexId
  poolId: string
  tokenIn: Address
  tokenOut: Address
  amountIn: AmountString
  amountOut: AmountString
  minOut: AmountString
}

export type SolverRoute = { amountIn: AmountString; amountOut: AmountString; legs: SolverLeg[] }

export type SolverCandidate = {
  path: Address[]
  dexes: DexId[]
  projectedOut: AmountString
  allocatedIn: AmountString
  score: number
}

/** The phases of a solve, in order (docs/solver-optimizer.md). */
export type SolverPhase = 'search' | 'probeSearch' | 'gasPricing' | 'evaluation' | 'bound' | 'optimizer' | 'resplit'

export type SolverMetadata = {
  connectorsConsidered: Address[]
  candidatePaths: number
  selectedPaths: number
  candidates: SolverCandidate[]
  stoppedBy: 'converged' | 'budget'
  /** The first phase the time budget cut, when it cut one (absent when the solve converged). */
  stoppedIn?: SolverPhase
  /** Milliseconds spent in each phase the solve entered, in the order they ran (the final replay not included). */
  phaseMs?: Partial<Record<SolverPhase, number>>
  /** Certified upper bound on what any routing of amountIn over the quote's venues pays (raw tokenOut, gas ignored), when computed. */
  upperBound?: AmountString
  /** 10⁴·(upperBound − expectedAmountOut)/upperBound, with `upperBound`. */
  gapBps?: number
}

/** The solver's answer: integer-exact routes, replayed through the exact models. */
export type SolverPlan = {
  /** The block the market was at for this plan (`applyBlock`); null when pools were changed without one. */
  blockNumber: number | null
  /** The per-leg L1 gas (`BlockUpdate.l1GasPerLeg`) that `gasUnits` includes once per leg. */
  l1GasPerLeg: number
  amountIn: AmountString
  expectedAmountOut: AmountString
  minAmountOut: AmountString
  gasUnits: number
  gasCostInTokenOut: AmountString
  routes: SolverRoute[]
  metadata: SolverMetadata
}

/**
 * Fynd's water-filling route over the same pools (`solver-rs/src/route/waterfill`): the reference
 * the quality benchmark compares plans with, not a plan the service answers. Its route is a tree:
 * shared hops merged into one swap, the amount collected at every token re-split across its
 * outgoing swaps; every swap exact on the solver's pool models.
 */
export type WaterfillPlan = {
  amountIn: AmountString
  expectedAmountOut: AmountString
  gasUnits: number
  gasCostInTokenOut: AmountString
  /** Which of Fynd's candidates won: the single path, the coarse or refined pool-disjoint split, or fill-and-spill. */
  strategy: 'singlePath' | 'coarseDisjoint' | 'refinedDisjoint' | 'fillAndSpill'
  /** The tree's swaps in execution order, each with its `minOut` at the request's slippage. */
  swaps: SolverLeg[]
  /**
   * The most hops a unit travels through the tree. Merging at a token reached after different
   * numbers of hops sends everything collected there on, so it can exceed `maxHops` (at most
   * 2·maxHops − 2), which neither a plan's routes nor the bound allow.
   */
  longestWalk: number
  /** The allocation the tree was built from: each path's tokens, pools and fraction of amountIn. */
  paths: { path: Address[]; pools: string[]; share: number }[]
  /**
   * What that allocation pays as a plan of ours (one route per path, run in order), or null if a
   * route cannot take its amount: where the tree pays more than this, its merged swaps (a shared
   * pool swapped once for several paths) made the difference, not its allocation.
   */
  routesAmountOut: AmountString | null
  candidatePaths: number
  stoppedBy: 'converged' | 'budget'
}

/** `tokenOut` is needed only for a venue of more than two tokens (a two-token pool's is its other one). */
/** `poolOverrides`: as a quote's, the swap on the pool at the sender's own rate. */
export type SimulateRequest = {
  poolId: string
  tokenIn: Address
  tokenOut?: Address
  amountIn: AmountString
  poolOverrides?: SolverPoolOverride[]
  /**
   * Swaps earlier legs of the same transaction make on this pool, in order: applied to its state
   * first, so the swap is priced where they leave the pool (a pool two legs of a plan trade).
   */
  priorSwaps?: PriorSwap[]
}
/** One earlier swap on a simulated pool (`SimulateRequest.priorSwaps`); `tokenOut` as `SimulateRequest`'s. */
export type PriorSwap = { tokenIn: Address; tokenOut?: Address; amountIn: AmountString }
/**
 * `words`: swap-loop steps that ended on an empty tick-bitmap word edge (V3 / singleton pools; 0 otherwise).
 * `repeatGasSaving`: gas units the leg costs less when an earlier leg of the transaction used the same pool.
 */
export type SimulateResult = { amountOut: AmountString; crossings: number; words: number; gasUnits: number; repeatGasSaving: number }

export type UpsertResult = { pools: number }

/** One block's changes, applied at once: no quote sees them half done, and later plans name the block. */
export type BlockUpdate = {
  blockNumber: number
  upserts?: PoolInput[]
  removals?: string[]
  /**
   * The L1 data fee of one leg's calldata, in L2 gas units at the block's gas price (absent: 0).
   * Added to every leg's gas, so routes with more legs cost their calldata (OP-stack chains).
   */
  l1GasPerLeg?: number
}
/** `pools`: live pools after the update; `rejected`: inputs refused (and removed from the market). */
export type BlockResult = { pools: number; rejected: { id: string; reason: string }[] }

/**
 * How a backend is doing: `ready` answers calls; `restarting`: a WASM instance trapped (or its
 * worker died or hung) and a new one is being started with the same market (calls wait for it);
 * `failed`: the WASM solver failed too many times in a row and refuses every call.
 */
export type SolverStatus = { backend: 'native' | 'wasm'; state: 'ready' | 'restarting' | 'failed'; restarts: number }

/** The solver over either backend. Every call runs off the main thread. */
export interface Solver {
  readonly backend: 'native' | 'wasm'
  /** The market's way in: one block's upserts and removals, and that block for every later plan. */
  applyBlock(update: BlockUpdate): Promise<BlockResult>
  /** Upserts without a block (tests, benches): later plans answer `blockNumber: null` until `applyBlock`. */
  upsertPools(pools: PoolInput[]): Promise<UpsertResult>
  /** Removes without a block, like `upsertPools`. */
  removePools(ids: string[]): Promise<UpsertResult>
  quote(request: SolverQuoteRequest): Promise<SolverPlan>
  /** The raw JSON answer of `quote`, for byte-level parity checks. */
  quoteJson(request: SolverQuoteRequest): Promise<string>
  simulate(request: SimulateRequest): Promise<SimulateResult>
  /**
   * Fynd's water-filling over the same pools, for quality comparisons (docs/solver-optimizer.md).
   * Only in builds with the test and bench references (`bash scripts/build.sh --reference`, what
   * `npm test` builds); a production build rejects with an internal error saying so.
   */
  waterfill(request: SolverQuoteRequest): Promise<WaterfillPlan>
  /** The backend's state, for readiness (the native addon is always ready: panics are caught per call). */
  status(): SolverStatus
  /** Releases the backend (terminates the WASM worker). */
  close(): Promise<void>
}
