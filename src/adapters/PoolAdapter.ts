import type { Address, Hex, Log, PublicClient } from 'viem'
import type { DexId, PoolInput } from '../../bindings/types.ts'
import type { PancakeInfinityPoolKey } from './poolKeys/pancakeInfinityPoolKey.ts'
import type { UniswapV4PoolKey } from './poolKeys/uniswapV4PoolKey.ts'
import type { LegData as SpecLegData } from '../router/routePlanTypes.ts'

/** The spec's `LegData` kinds our adapters emit (docs/route-legs.md): a subset of the one union. */
export type LegData = Extract<
  SpecLegData,
  {
    kind:
      | 'v2_direct'
      | 'v3_direct'
      | 'pancake_v3_direct'
      | 'algebra_direct'
      | 'hydrex'
      | 'univ4'
      | 'aerodrome_v2'
      | 'pancake_infinity_cl'
      | 'prop_amm'
      | 'curve'
      | 'dodo_v2'
      | 'woofi'
      | 'balancer_vault'
      | 'maverick_v2'
  }
>

export type LegKind = LegData['kind']

/**
 * What the market knows about a pool before reading it: enough to read it, to match its logs and
 * to encode a leg through it.
 */
export type PoolRef = {
  /** Lowercase pool address, or the bytes32 pool id on a singleton manager (the solver's id). */
  id: string
  dex: DexId
  /** Lowercase address of the contract whose logs report this pool's state: the pool, or the V4 PoolManager. */
  emitter: Address
  /**
   * Lowercase address of the contract holding the pool's tokens when it is neither the pool nor the
   * emitter (PancakeSwap Infinity's Vault: its pool manager only accounts): what token screening
   * probes. Absent: the emitter holds them.
   */
  holder?: Address
  /** UNIV4 only: the pool key. */
  key?: UniswapV4PoolKey
  /** PANCAKE_INFINITY_CL only: the pool key (its `parameters` hold the tick spacing). */
  infinityKey?: PancakeInfinityPoolKey
  /** AERODROME_V2LIKE only: the pool's factory (it holds the fee) and its curve, once known. */
  factory?: Address
  stable?: boolean
  /** CURVE only: the pool's coins in its order (lowercase), once read: a leg's `i` and `j` index them. */
  coins?: Address[]
  /** CURVE only: a meta pool's base pool (lowercase), once read: `coins` are then its underlying coins, a leg calls `exchange_underlying`. */
  curveBasePool?: Address
  /** CURVE only: a CryptoSwap pool's template (absent: StableSwap), `src/adapters/curveCrypto.ts`, `curveTricrypto.ts`. */
  curveTemplate?: 'twocrypto-ng' | 'tricrypto-ng'
  /** GYROSCOPE_ECLP only: the pool contract (its getters; `id` is its Vault pool id, `emitter` the Vault). */
  pool?: Address
  /** Prop AMMs: the contract a trade calls (PropSwap router, Tessera engine, or the venue), once read. WOOFI: the WooRouterV2. */
  entry?: Address
  /** WOOFI only: the vault's base tokens (the vault lists none on chain), in the order its wire state lists them. */
  bases?: Address[]
  /** Prop AMMs only: the venue's configured safety margin in bps (else its kind's default). */
  marginBps?: number
  /** DODO_V2 only: which PMM pool and its base token, once known (the factory's event, or a read); its fee-rate model once read (a taker's maintainer rate is asked of it). */
  dodo?: { variant: 'dvm' | 'dsp' | 'dpp'; baseToken: Address; feeRateModel?: Address }
  /** MAVERICK_V2 only, once read: token A (lowercase) and the furthest tick holding reserves each way at the read (a leg's `tickLimit`). */
  maverick?: { tokenA: Address; tickLimits: { aIn: number; bIn: number } }
}

/** The tokens a leg trades, in its direction (a venue whose leg names them needs it: aerodrome_v2). */
export type LegDirection = { tokenIn: Address; tokenOut: Address }

/** A pool read at one block, decoded for the solver. */
export type PoolSnapshot = {
  ref: PoolRef
  input: PoolInput
  /**
   * The state moves without events (an Algebra dynamic-fee plugin or a Slipstream fee module: the
   * fee follows the clock; an Aerodrome factory's fees and pause), so re-read it every block.
   */
  refreshEveryBlock: boolean
}

/** Where a kind is deployed on one chain. */
export type DexDeployment = {
  /** The contract whose events announce pools: the factory, or the PoolManager for UNIV4. */
  source: Address
  /** First block worth scanning for discovery events (the source's deployment block). */
  fromBlock?: bigint
  /**
   * The pools' CREATE2 creation-code hash, for kinds whose pool addresses follow from the factory
   * and the tokens (PANCAKE_V2): the chain's record of it. Discovery trusts the factory's own event
   * and does not need it.
   */
  initCodeHash?: Hex
  /**
   * The source keeps an append-only registry of its pools (`pool_count()`, `pool_list(i)`: Curve's
   * StableSwap factories, whose deploy events do not name the pool): its pools are listed from it at
   * the head on every start and again whenever it emits a discovery event, not scanned from its
   * events (`fromBlock` is not used). Only for kinds whose adapter has `listPools`.
   */
  registry?: boolean
}

/**
 * What a discovery log announced: a pool, a pool never read (with why), or, from a registry source,
 * that its registry grew (the new pools are listed from it: `PoolAdapter.listPools`).
 */
export type DiscoveredPool = { ref: PoolRef } | { skipped: { id: string; dex: DexId; reason: string } } | { registryGrew: true }

/** The pools a registry source lists at a block, from an index on. */
export type ListPoolsParameters = {
  client: PublicClient
  /** The registry (the factory). */
  source: Address
  blockNumber: bigint
  /** The first index to read (the count listed before): the registry is append-only. */
  from: bigint
}

/**
 * A registry's pools from `from` to its count at the block, in index order, and that count (below
 * `from` after a reorg dropped a deployment: the next listing starts there).
 */
export type ListedPools = { refs: PoolRef[]; count: bigint }

/** The block a plan priced at `blockNumber` executes in first: state that follows the clock is read for it. */
export type NextBlock = { number: bigint; timestamp: bigint }

export type ReadPoolParameters = {
  client: PublicClient
  ref: PoolRef
  /** Every read is pinned to this block. */
  blockNumber: bigint
  /** The block after `blockNumber` (the chain's block time later): what a clock-driven fee is read for. */
  nextBlock: NextBlock
  /** The address that executes trades (the swap router): venues whose quotes depend on the caller are asked as it. */
  executor?: Address
}

/**
 * One DEX kind: discovery, one-block reads, change detection and leg encoding. Gas figures are the
 * solver's, not the adapter's.
 */
export type PoolAdapter = {
  dex: DexId
  legKind: LegKind
  /** topic0 of the events, emitted by the deployment's `source`, that announce a new pool. */
  discoveryTopics: readonly Hex[]
  /** Decodes one discovery log (its topic0 is one of `discoveryTopics`). */
  poolFromDiscoveryLog: (log: Log) => DiscoveredPool
  /** Kinds with registry sources (`DexDeployment.registry`): the pools a source lists at a block. */
  listPools?: (parameters: ListPoolsParameters) => Promise<ListedPools>
  /** topic0 of the events, emitted by a pool's `emitter`, that mean its pricing state changed. */
  stateTopics: readonly Hex[]
  /** The pool id a state log concerns: the emitter for one-contract pools, topic1 for V4. */
  poolIdOfStateLog: (log: Log) => string
  /** A ref for a configured pool (no discovery): the address, or the V4 key. */
  refOfConfiguredPool: (pool: ConfiguredPool, deployment: DexDeployment | undefined) => PoolRef
  /**
   * Reads the full pricing state at `blockNumber`; throws `PoolUnusableError` when it cannot be
   * priced exactly. The snapshot's `ref` may carry more than the one passed (what the read learnt).
   */
  readPool: (parameters: ReadPoolParameters) => Promise<PoolSnapshot>
  /**
   * Re-reads only what moves without an event (a fee that follows the clock, a governance setting)
   * onto `previous`, a snapshot of an earlier block with no event of the pool since: what the market
   * does for pools whose snapshot says `refreshEveryBlock` when nothing else happened to them.
   * Absent: such pools are read whole every block.
   */
  readVolatile?: (parameters: ReadPoolParameters & { previous: PoolSnapshot }) => Promise<PoolSnapshot>
  /** The route leg through this pool in `direction`, exactly as docs/route-legs.md. */
  encodeLeg: (ref: PoolRef, direction?: LegDirection) => LegData
}

/** A pool listed in a chain config instead of (or besides) being discovered. */
export type ConfiguredPool = {
  dex: DexId
  /** The pool address (one-contract pools) or the V4 pool id. */
  address: string
  /** UNIV4 and PANCAKE_INFINITY_CL: the key fields. */
  currency0?: Address
  currency1?: Address
  fee?: number
  tickSpacing?: number
  hooks?: Address
  /** Prop AMMs: the venue's safety margin in bps, 0..10,000 (else its kind's default, docs/dex-kinds.md). */
  marginBps?: number
  /** WOOFI: the WooRouterV2 its `woofi` leg calls, and the vault's base tokens (1 to 3). */
  router?: Address
  bases?: Address[]
  /** CURVE: `twocrypto-ng` or `tricrypto-ng` for a CryptoSwap pool (absent: StableSwap). */
  template?: 'twocrypto-ng' | 'tricrypto-ng'
}
