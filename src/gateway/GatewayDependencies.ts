import type { SharedRedis } from '../limits/redis/connectRedis.ts'
import type { KeyStore } from './auth/createKeyStore.ts'
import type { GatewayChain } from './GatewayChain.ts'
import type { HolderProvider } from './holders/HolderProvider.ts'
import type { DocumentPinner } from './documents/DocumentPinner.ts'
import type { CursorCodec } from './http/createCursorCodec.ts'
import type { IdempotencyStore } from './idempotency/createIdempotencyStore.ts'
import type { IndexerStatus } from './indexer/createIndexer.ts'
import type { WeightedLimiter } from './limits/WeightedLimiter.ts'
import type { UsageSummaries } from './limits/UsageSummaries.ts'
import type { SqlDatabase } from './store/SqlDatabase.ts'
import type { SwapQuoteStore } from './swaps/createSwapQuoteStore.ts'
import type { TransactionPlanStore } from './transactionPlans/createTransactionPlanStore.ts'

/** What the gateway's routes run on. */
export type GatewayDependencies = {
  db: SqlDatabase
  keys: KeyStore
  limiter: WeightedLimiter
  /** The shared Redis the limiter runs on (`REDIS_URL`), for readiness; absent: the limiter is in memory. */
  redis?: SharedRedis
  usage: UsageSummaries
  /** Idempotency entries of the prepare routes (spec §3, §8). */
  idempotency: IdempotencyStore
  /** The transaction plans prepare routes returned (`GET /plans/{id}`). */
  plans: TransactionPlanStore
  /** Swap quotes answered, for `POST /swaps/prepare`. */
  swapQuotes: SwapQuoteStore
  cursors: CursorCodec
  /** Pins metadata documents: the embedded blockstore, or a Kubo node (`IPFS_API_URL`). */
  ipfs: DocumentPinner
  /** The chains served, by chain id (the supported set of spec §7's `unsupported_chain`). */
  chains: ReadonlyMap<number, GatewayChain>
  holders: HolderProvider
  /** Each chain's indexer, for `/health`. */
  indexers: () => IndexerStatus[]
  /** Absolute URL of the problem reference page (a problem's `type` is one of its fragments). */
  problemsUrl: string
  /** Absolute URL of the migration guide, linked from deprecated routes (`rel="deprecation"`). */
  migrationGuideUrl: string
  /** Deadline of each live chain or provider read. */
  liveReadTimeoutMs: number
  /**
   * The deployment's environment: a `live` deployment (a real chain) refuses `gw_test_` keys; a
   * `test` one (the embedded chain) accepts both.
   */
  environment: 'live' | 'test'
  now: () => number
}
