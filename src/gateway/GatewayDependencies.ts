import type { KeyStore } from './auth/createKeyStore.ts'
import type { GatewayChain } from './GatewayChain.ts'
import type { HolderProvider } from './holders/HolderProvider.ts'
import type { CursorCodec } from './http/createCursorCodec.ts'
import type { IndexerStatus } from './indexer/createIndexer.ts'
import type { WeightedLimiter } from './limits/createWeightedLimiter.ts'
import type { UsageRecorder } from './limits/createUsageRecorder.ts'
import type { SqlDatabase } from './store/SqlDatabase.ts'

/** What the gateway's routes run on. */
export type GatewayDependencies = {
  db: SqlDatabase
  keys: KeyStore
  limiter: WeightedLimiter
  usage: UsageRecorder
  cursors: CursorCodec
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
  now: () => number
}
