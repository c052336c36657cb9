import type { Address } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { ConfiguredPool, DexDeployment } from '../adapters/PoolAdapter.ts'

/** One chain the market can read: where each DEX kind lives, and which pools to start from. */
export type ChainConfig = {
  name: string
  chainId: number
  /**
   * Seconds between blocks, fixed by the chain (Base: 2): the next block's timestamp is the
   * snapshot's plus this, which is when a clock-driven fee is read for.
   */
  blockTimeSec: number
  /** Default RPC endpoint (the `RPC_URL` environment variable overrides it in the service). */
  rpcUrl?: string
  weth: Address
  multicall3: Address
  /** Our swap router, once deployed on this chain. */
  router?: Address
  /**
   * Where each kind is deployed; a kind without a deployment is neither discovered nor listened to.
   * A kind announced by several contracts (Curve's twocrypto-ng and tricrypto-ng factories) lists
   * them all, the first being what configured pools are made against (`chainDeployments.ts`).
   */
  deployments: Partial<Record<DexId, DexDeployment | readonly DexDeployment[]>>
  /** Pools to read at cold start besides (or instead of) discovery. */
  pools: ConfiguredPool[]
  /**
   * An OP-stack chain (Base): transactions pay an L1 data fee, priced from the `GasPriceOracle`
   * predeploy at each block (docs/real-chain.md, "The L1 data fee").
   */
  opStack?: boolean
  /**
   * Venues of this chain the market knows it does not follow (a later factory of a kind, a pool
   * type without an adapter): listed in `GET /ready` (`notCovered`) and logged at start, so a missing
   * venue is stated, never silent.
   */
  notCovered?: NotCoveredVenue[]
  /** Tokens whose pools are never routed through (fee-on-transfer, rebasing, or unwanted). */
  denyTokens?: Address[]
  tokens?: Record<string, { address: Address; decimals: number }>
}

/** A venue the market does not follow: its kind (a DexId, or the protocol's name) and what is missing. */
export type NotCoveredVenue = { dex: string; what: string }
