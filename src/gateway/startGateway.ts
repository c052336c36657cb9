import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { createKeyStore } from './auth/createKeyStore.ts'
import { createGatewayApp } from './createGatewayApp.ts'
import { createBlockstorePinner } from './documents/createBlockstorePinner.ts'
import type { DocumentPinner } from './documents/DocumentPinner.ts'
import type { GatewayChain } from './GatewayChain.ts'
import type { GatewayDependencies } from './GatewayDependencies.ts'
import { createIndexedHolderProvider } from './holders/createIndexedHolderProvider.ts'
import type { HolderProvider } from './holders/HolderProvider.ts'
import { createCursorCodec } from './http/createCursorCodec.ts'
import { createIdempotencyStore } from './idempotency/createIdempotencyStore.ts'
import { createIndexer, type Indexer, type IndexerStatus } from './indexer/createIndexer.ts'
import { createRedisUsageSummaries } from './limits/createRedisUsageSummaries.ts'
import { createUsageRecorder } from './limits/createUsageRecorder.ts'
import { createRedisWeightedLimiter } from './limits/createRedisWeightedLimiter.ts'
import { createWeightedLimiter } from './limits/createWeightedLimiter.ts'
import type { SqlDatabase } from './store/SqlDatabase.ts'
import { createSwapQuoteStore } from './swaps/createSwapQuoteStore.ts'
import { createTransactionPlanStore } from './transactionPlans/createTransactionPlanStore.ts'
import type { SharedRedis } from '../limits/redis/connectRedis.ts'
import type { SecretRedactor } from '../logging/createSecretRedactor.ts'

export type StartGatewayParameters = {
  db: SqlDatabase
  /** The chains served, each with its launchpad and the block its factory was deployed at. */
  chains: (GatewayChain & { fromBlock: bigint })[]
  host?: string
  /** 0: any free port. */
  port?: number
  /**
   * A server already listening (`listenWhileLoading`'s, bound before the service loads): the app
   * is built on it instead of listening on `host:port`, and answers once the caller hands it over.
   */
  serverFactory?: FastifyServerOptions['serverFactory']
  /** Called once the indexers exist, before they catch up: their positions, for the loading server's progress. */
  onIndexers?: (status: () => IndexerStatus[]) => void
  /** The gateway's public base URL (problem `type`s and the migration guide link under it); default the address it listens on. */
  publicUrl?: string
  /** Signs cursors; default random per process (cursors then end with the process, like its ordering versions would not). */
  cursorSecret?: Buffer
  /** Default: the indexer's balances (`createIndexedHolderProvider`). */
  holders?: HolderProvider
  liveReadTimeoutMs?: number
  /**
   * Where metadata documents are pinned (closed with the gateway). Default: the embedded
   * blockstore in a fresh temporary directory, removed on close (`npm start` passes
   * `var/ipfs/blocks`, or Kubo).
   */
  ipfs?: DocumentPinner
  /** Indexer batch size and poll interval (the defaults suit a real chain). */
  indexer?: { batchBlocks?: number; pollIntervalMs?: number; rankingIntervalMs?: number; lease?: { ttlMs?: number } }
  /** Index to the head before listening (default true): the first answers are then current. */
  catchUp?: boolean
  /**
   * Follow the chains with this process's own indexers (default true). Instances following one
   * database take turns: one indexes each chain, the others stand by (`createIndexer`'s lease).
   * False: serve a read model another process keeps current (or a prepared one in the bench).
   */
  follow?: boolean
  logger?: FastifyServerOptions['logger'] | false
  /** Applied to every log line besides the gateway's own redaction of keys (the swap service's, in `npm start`). */
  redact?: SecretRedactor
  trustProxy?: FastifyServerOptions['trustProxy']
  /**
   * A Redis shared by every instance (`REDIS_URL`): the limiter's windows, ceilings and leases live
   * there (closed by the caller). Absent: in this process's memory.
   */
  redis?: SharedRedis
  /** A concurrency lease's TTL in Redis (tests shorten it); default `LEASE_TTL_MS`. */
  leaseTtlMs?: number
  /** How long a running request holds its idempotency key (tests shorten it); default `IDEMPOTENCY_LEASE_MS`. */
  idempotencyLeaseMs?: number
  /** `live` (default) refuses `gw_test_` keys; the embedded deployment is `test`. */
  environment?: 'live' | 'test'
  now?: () => number
}

export type RunningGateway = {
  fastify: FastifyInstance
  url: string
  deps: GatewayDependencies
  indexers: Indexer[]
  close: () => Promise<void>
}

/**
 * The gateway as a running service: its dependencies (key store, limiter, usage summaries,
 * cursor codec, holder provider), one indexer per chain following its launchpad, and the HTTP
 * surface listening. `close` stops the indexers and the server and flushes the usage summaries
 * (the database stays the caller's).
 *
 * @example
 * const gateway = await startGateway({ db, chains: [chain], port: 8081 })
 * console.log(gateway.url)
 * // prints http://127.0.0.1:8081, the indexers following chain; gateway.close() stops them and the server
 */
export async function startGateway({
  db,
  chains,
  host = '127.0.0.1',
  port = 0,
  serverFactory,
  onIndexers,
  publicUrl,
  cursorSecret = randomBytes(32),
  holders,
  liveReadTimeoutMs = 5_000,
  ipfs,
  indexer = {},
  catchUp = true,
  follow = true,
  logger = false,
  redact,
  trustProxy = false,
  redis,
  leaseTtlMs,
  idempotencyLeaseMs,
  environment = 'live',
  now = Date.now,
}: StartGatewayParameters): Promise<RunningGateway> {
  const indexers = (follow ? chains : []).map((c) =>
    createIndexer({
      db,
      client: c.client,
      launchpad: {
        chainId: c.chainId,
        factory: c.launchpad.factory,
        feeLocker: c.launchpad.feeLocker,
        vestingVault: c.launchpad.vestingVault,
        fromBlock: c.fromBlock,
      },
      ...indexer,
    }),
  )
  onIndexers?.(() => indexers.map((i) => i.status()))
  if (catchUp) for (const i of indexers) await i.catchUp()
  // On Redis the limiter's script counts usage as it decides; in memory, this process's recorder does.
  const recorder = redis ? undefined : createUsageRecorder({ db, now })
  const usage = recorder ?? createRedisUsageSummaries({ redis: redis!, db })
  const limiter = redis ? createRedisWeightedLimiter({ redis, leaseTtlMs }) : createWeightedLimiter({ now, onUsage: recorder!.record })
  const idempotency = createIdempotencyStore({ db, now, leaseMs: idempotencyLeaseMs })
  const plans = createTransactionPlanStore({ db, now })
  const sweep = setInterval(() => {
    limiter.sweep()
    void idempotency.purge().catch(() => {})
    void plans.purge().catch(() => {})
  }, 60_000)
  sweep.unref()
  // Without a pinner: a blockstore of this process only, removed with the gateway.
  const scratch = ipfs ? undefined : await mkdtemp(join(tmpdir(), 'gateway-ipfs-'))
  const pinner = ipfs ?? (await createBlockstorePinner({ dir: scratch! }))
  const deps: GatewayDependencies = {
    db,
    ipfs: pinner,
    keys: createKeyStore({ db, now }),
    limiter,
    redis,
    usage,
    idempotency,
    plans,
    swapQuotes: createSwapQuoteStore({ db }),
    cursors: createCursorCodec({ secret: cursorSecret }),
    chains: new Map(chains.map((c) => [c.chainId, c])),
    holders: holders ?? createIndexedHolderProvider({ db, now }),
    indexers: () => indexers.map((i) => i.status()),
    // Set once the address is known (below), before the first request.
    problemsUrl: publicUrl ? `${publicUrl}/problems` : '',
    migrationGuideUrl: publicUrl ? `${publicUrl}/docs/migration` : '',
    liveReadTimeoutMs,
    environment,
    now,
  }
  const fastify = await createGatewayApp({
    deps,
    serverFactory,
    logger,
    redact,
    trustProxy,
    onClose: async () => {
      clearInterval(sweep)
      await Promise.all(indexers.map((i) => i.stop()))
      await usage.close()
      await pinner.close()
      if (scratch) await rm(scratch, { recursive: true, force: true })
    },
  })
  if (!serverFactory) await fastify.listen({ host, port })
  const address = fastify.server.address()
  const url =
    typeof address === 'object' && address
      ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
      : String(address)
  if (!publicUrl) {
    deps.problemsUrl = `${url}/problems`
    deps.migrationGuideUrl = `${url}/docs/migration`
  }
  for (const i of indexers) i.start()
  return { fastify, url, deps, indexers, close: () => fastify.close() }
}
