import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { type Address, createPublicClient, getAddress, type PublicClient } from 'viem'
import { loadSolver, type Solver } from '../bindings/index.ts'
import type { SolverPlan } from '../bindings/types.ts'
import { base } from './chains/base.ts'
import type { ChainConfig } from './chains/ChainConfig.ts'
import { type DevnetFile, devnetChainConfig } from './chains/devnetChainConfig.ts'
import { loadChainConfigFile } from './chains/loadChainConfigFile.ts'
import { loadPoolsFile } from './chains/loadPoolsFile.ts'
import { installOpStackFeePredeploys } from './chains/opStack/installOpStackFeePredeploys.ts'
import { routerLegCalldataBytes } from './chains/opStack/routerLegCalldataBytes.ts'
import { setL1FeeParameters } from './chains/opStack/setL1FeeParameters.ts'
import { createRpcTransport, type RpcTransport } from './chains/rpc/createRpcTransport.ts'
import { viemChainOf } from './chains/viemChainOf.ts'
import { configSecretRedactor } from './config/configSecretRedactor.ts'
import { feeRecipientProblems } from './config/feeRecipientProblems.ts'
import { type Config, ConfigError } from './config/loadConfig.ts'
import { compiledContractsPath } from './artifacts/compiledContractsPath.ts'
import { type SeededDevnet, startSeededDevnet } from './devnet/startSeededDevnet.ts'
import { propAmmQuotesAsExecutor } from './adapters/propAmm/propAmmQuotesAsExecutor.ts'
import { type PropAmmKeeper, startPropAmmKeeper } from './devnet/propAmm/startPropAmmKeeper.ts'
import { type ApiKeyCheck, createApiKeyCheck } from './http/auth/createApiKeyCheck.ts'
import { createAdmissionControl } from './http/admission/createAdmissionControl.ts'
import { createMetricsServer, type MetricsServer } from './http/metrics/createMetricsServer.ts'
import { createServiceMetrics } from './http/metrics/createServiceMetrics.ts'
import { createReloadingApiKeyCheck } from './config/createReloadingApiKeyCheck.ts'
import { createSwapApp } from './http/createSwapApp.ts'
import { readinessReport } from './http/readinessReport.ts'
import { createQuoteIssuer } from './http/quotes/createQuoteIssuer.ts'
import { createMemoryQuoteStore } from './http/quotes/createQuoteStore.ts'
import type { SwapApiDependencies } from './http/SwapApiDependencies.ts'
import { createMemoryRateLimiter } from './limits/createMemoryRateLimiter.ts'
import { connectRedis, type SharedRedis } from './limits/redis/connectRedis.ts'
import { createRedisRateLimiter } from './limits/redis/createRedisRateLimiter.ts'
import { createRedisQuoteStore } from './http/quotes/createRedisQuoteStore.ts'
import { createDiscoveryProgressReporter } from './market/createDiscoveryProgressReporter.ts'
import { createMarketState, type MarketState } from './market/createMarketState.ts'
import type { DiscoveryProgress } from './market/discoverDeployments.ts'
import { createMemoryMarketStore } from './market/store/createMemoryMarketStore.ts'
import { createSqliteMarketStore } from './market/store/createSqliteMarketStore.ts'
import type { MarketStore } from './market/store/MarketStore.ts'
import { createCachedGasPrice } from './quote/createCachedGasPrice.ts'
import { createQuoteService } from './quote/createQuoteService.ts'
import { cacheTakerRates } from './quote/dodoTakerOverrides.ts'
import { readDodoTakerRates } from './adapters/state/readDodoTakerRates.ts'
import type { SecretRedactor } from './logging/createSecretRedactor.ts'
import { startUpstreams } from './upstream/startUpstreams.ts'

export type StartSwapServiceParameters = {
  config: Config
  logger?: FastifyServerOptions['logger'] | false
  /** Where the embedded chain's description goes (default `<repo>/var/devnet.json`). */
  devnetDescriptionPath?: string
  /** Discovery's progress (default: a line on a terminal's stderr, else the logger). */
  onDiscoveryProgress?: (progress: DiscoveryProgress) => void
  /**
   * `await` (default): resolves once the market's cold start is done. `background`: resolves once
   * everything is wired, the cold start still running (`coldStart`), so the app can listen at once:
   * `/health` answers, `/ready` reports the progress, quotes are refused (503) until it is done.
   */
  coldStart?: 'await' | 'background'
  /**
   * The embedded chain only: its prop AMM venues are re-priced by their keeper every this many ms
   * (`startPropAmmKeeper`; `npm start`: 2,000, Base's block time). Absent: no keeper runs, and the
   * venues go stale after their block delay (the market leaves them out, saying so).
   */
  propAmmKeeperIntervalMs?: number
  /**
   * The embedded chain only: follow its seeded Curve meta pool (`devnetChainConfig`'s
   * `curveMetaPools`; default false: its bound is loose, docs/dex-kinds.md, CURVE).
   */
  curveMetaPools?: boolean
  /** The app's HTTP server (`createSwapApp`); default: Fastify's own, not listening. */
  serverFactory?: FastifyServerOptions['serverFactory']
}

/**
 * The embedded chain's L1 fee parameters: Base's scalars (base fee 2,269, blob base fee 1,055,762,
 * the values Base set at Ecotone), an L1 base fee of 1 gwei and a blob base fee of 1 wei: a Base
 * transaction's L1 fee of 2025, about 1e-8 ETH per 300 bytes of calldata.
 */
export const EMBEDDED_L1_FEE_PARAMETERS = { l1BaseFee: 10n ** 9n, blobBaseFee: 1n, baseFeeScalar: 2269n, blobBaseFeeScalar: 1_055_762n }

export type SwapService = {
  /** Ready, not listening. `fastify.close()` stops everything below too. */
  fastify: FastifyInstance
  deps: SwapApiDependencies
  chain: ChainConfig
  publicClient: PublicClient
  market: MarketState
  solver: Solver
  /** The embedded chain, unless `RPC_URL` is set. */
  devnet?: SeededDevnet
  /** The embedded chain's prop AMM operator, with `propAmmKeeperIntervalMs` (stopped with the app). */
  propAmmKeeper?: PropAmmKeeper
  /** The generated development key when no key was configured (embedded chain only). */
  devApiKey?: string
  /** The redactor every log line of the service goes through (the configuration's secrets and the development key). */
  redact: SecretRedactor
  /** The RPC nodes and their circuits (`RPC_URL` only). */
  rpc?: RpcTransport
  /** `GET /metrics` on its own port (`METRICS_PORT`), not listening yet; closed with the app. */
  metricsServer: MetricsServer
  /** The market's cold start: settled already unless `coldStart: 'background'`; rejects with its error. */
  coldStart: Promise<void>
}

/**
 * Wires the service: the embedded seeded chain (unless `config.rpcUrl`), the solver, the market
 * state (cold start, then polling; awaited, or left running with `coldStart: 'background'`), the
 * quote service and the HTTP app. Throws `ConfigError` when
 * `FEE_RECIPIENT` is the router (known only here for the embedded chain). Closing the app stops the
 * market polling, releases the solver and stops the embedded chain, in that order.
 *
 * @example
 * const service = await startSwapService({ config: loadConfig(process.env), logger: { level: 'info' } })
 * await service.fastify.listen({ host: '127.0.0.1', port: 8080 })
 * await service.fastify.close() // and the market, the solver, the chain
 */
export async function startSwapService({
  config,
  logger = false,
  devnetDescriptionPath,
  onDiscoveryProgress,
  coldStart: coldStartMode = 'await',
  propAmmKeeperIntervalMs,
  curveMetaPools,
  serverFactory,
}: StartSwapServiceParameters): Promise<SwapService> {
  const stops: (() => Promise<void>)[] = []
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
  // Generated first so the redactor knows it from the first log line on.
  const devApiKey = config.apiKeys.length === 0 ? `dev_${randomBytes(16).toString('hex')}` : undefined
  const redact = configSecretRedactor({ config, extraApiKeys: devApiKey ? [devApiKey] : [] })
  try {
    let devnet: SeededDevnet | undefined
    let propAmmKeeper: PropAmmKeeper | undefined
    let chain: ChainConfig
    let publicClient: PublicClient
    let router: Address
    let feeRecipient = config.feeRecipient
    let rpc: RpcTransport | undefined
    // RPC errors reach the metrics once they exist (the transport is made first).
    let rpcErrorSink: (event: { url: string; kind: string; method: string }) => void = () => {}
    let rpcCallSink: (event: { url: string; method: string; seconds: number }) => void = () => {}
    let redisErrorSink: (kind: string) => void = () => {}
    let store: MarketStore
    if (config.rpcUrl) {
      const configured = config.chainConfigPath ? loadChainConfigFile({ path: config.chainConfigPath }) : base
      const extraPools = config.poolsFile ? loadPoolsFile({ path: config.poolsFile }) : []
      chain = {
        ...configured,
        rpcUrl: config.rpcUrl,
        router: config.routerAddress,
        pools: [...configured.pools, ...extraPools],
        denyTokens: [...(configured.denyTokens ?? []), ...config.denyTokens],
      }
      rpc = createRpcTransport({
        urls: config.rpcUrls,
        timeoutMs: config.rpcTimeoutMs,
        onError: (e) => rpcErrorSink(e),
        onCall: (e) => rpcCallSink(e),
      })
      publicClient = createPublicClient({ chain: viemChainOf(chain), transport: rpc.transport }) as PublicClient
      router = getAddress(config.routerAddress as Address)
      const found = await publicClient.getChainId()
      if (found !== chain.chainId)
        throw new ConfigError([`RPC_URL: the node serves chain ${found}, the chain config is ${chain.name} (${chain.chainId})`])
      store = createSqliteMarketStore({
        path: config.marketDbPath ?? join(compiledContractsPath().root, 'var', `market-${chain.chainId}.sqlite`),
        chainId: chain.chainId,
      })
    } else {
      devnet = await startSeededDevnet({
        descriptionPath: devnetDescriptionPath ?? join(compiledContractsPath().root, 'var', 'devnet.json'),
      })
      const started = devnet
      stops.push(() => started.stop())
      // Base's L1 fee on the embedded chain: Optimism's own GasPriceOracle and L1Block bytecode at the
      // predeploy addresses, written by the depositor as on Base (docs/real-chain.md).
      await installOpStackFeePredeploys({ testClient: devnet.testClient as never })
      await setL1FeeParameters({
        publicClient: devnet.publicClient as never,
        testClient: devnet.testClient as never,
        parameters: EMBEDDED_L1_FEE_PARAMETERS,
      })
      chain = { ...devnetChainConfig({ file: devnet.market as unknown as DevnetFile, curveMetaPools }), opStack: true }
      chain.denyTokens = [...(chain.denyTokens ?? []), ...config.denyTokens]
      publicClient = devnet.publicClient as unknown as PublicClient
      store = createMemoryMarketStore({ chainId: chain.chainId })
      router = devnet.market.router
      // The last funded dev account collects integrator fees unless FEE_RECIPIENT says otherwise.
      feeRecipient ??= devnet.market.accounts[devnet.market.accounts.length - 1]?.address
    }
    // The router refuses to pay itself: refuse to start rather than build transactions that revert
    // (loadConfig checked ROUTER_ADDRESS; the embedded chain's router is known only now).
    const paysTheRouter = feeRecipientProblems({ router, feeRecipient, apiKeys: config.apiKeys })
    if (paysTheRouter.length > 0) throw new ConfigError(paysTheRouter)
    const solver = await loadSolver(
      { nativeToken: chain.weth, defaultTimeBudgetMs: config.solverTimeBudgetMs },
      { backend: config.solverBackend },
    )
    stops.push(() => solver.close())
    // Market lines go to the app's logger once it exists; the cold start's are held until then.
    const held: string[] = []
    let marketLog = (line: string) => {
      held.push(line)
    }
    stops.push(async () => store.close())
    // REDIS_URL: quotes and rate limits shared by every instance (docs/scaling.md); else in memory.
    // Connected before the cold start (which can take hours on a real chain): a wrong REDIS_URL or
    // an evicting Redis fails the start now.
    let shared: SharedRedis | undefined
    if (config.redisUrl) {
      let lastRedisEvent = ''
      shared = await connectRedis({
        url: config.redisUrl,
        onEvent: ({ kind, message }) => {
          if (kind === 'error' || kind === 'commandFailed') redisErrorSink(kind)
          const line = `redis: ${kind}${message ? `: ${message}` : ''}`
          if (line !== lastRedisEvent) marketLog(redact(line))
          lastRedisEvent = line
        },
      })
      const redis = shared
      stops.push(() => redis.close())
    }
    if (devnet && propAmmKeeperIntervalMs !== undefined) {
      const keeper = await startPropAmmKeeper({
        devnet,
        propAmms: devnet.market.propAmms,
        wooracle: devnet.market.woofi?.oracle,
        intervalMs: propAmmKeeperIntervalMs,
        log: (line) => marketLog(line),
      })
      propAmmKeeper = keeper
      stops.push(() => keeper.stop())
    }
    const market = createMarketState({
      client: publicClient,
      chain,
      solver,
      maxSnapshotAgeMs: config.maxSnapshotAgeMs,
      pollIntervalMs: config.marketPollIntervalMs,
      maxLogBlockRange: BigInt(config.maxLogBlockRange),
      discoveryCallsPerSecond: config.discoveryCallsPerSecond,
      discoveryMaxInFlight: config.discoveryMaxInFlight,
      store,
      minLiquidityWei: BigInt(config.minPoolLiquidityWei),
      l1BytesPerLeg: routerLegCalldataBytes(),
      tokenWindowBlocks: BigInt(config.tokenCheckWindowBlocks),
      tokenRecheckAfterBlocks: BigInt(config.tokenRecheckAfterBlocks),
      onProgress:
        onDiscoveryProgress ??
        createDiscoveryProgressReporter({
          stream: process.stderr,
          log: (fields, message) => marketLog(`${message} ${JSON.stringify(fields)}`),
        }),
      log: (line) => marketLog(line),
      redact,
    })
    stops.push(() => market.stop())
    for (const { dex, what } of chain.notCovered ?? []) marketLog(`market: not followed on ${chain.name}: ${dex}: ${what}`)
    const cachedGasPrice = createCachedGasPrice({ read: () => publicClient.getGasPrice() })

    // The gas price the market read with its block: a quote never waits for the chain.
    const getGasPriceWei = async () => market.feesAt(undefined)?.gasPriceWei ?? cachedGasPrice()
    // Each solver answer's phase times go to the metrics (created below, with the admission control).
    let solvedSink: (plan: SolverPlan) => void = () => {}
    const quoteService = createQuoteService({
      solver: {
        quote: async (request) => {
          const plan = await solver.quote({ ...request, timePhases: true })
          solvedSink(plan)
          return plan
        },
        simulate: (request) => solver.simulate(request),
      },
      market,
      chainId: chain.chainId,
      weth: chain.weth,
      router,
      getGasPriceWei,
      defaultTimeBudgetMs: config.solverTimeBudgetMs,
      // Prop AMMs asked again as the router at the node's latest block before a plan is answered.
      requoteSampled: (asks) => propAmmQuotesAsExecutor({ client: publicClient, executor: router, asks, block: { blockTag: 'latest' } }),
      // A quote with a taker is priced at its own DODO_V2 maintainer rates (docs/dex-kinds.md "DODO_V2").
      readDodoTakerRates: cacheTakerRates((args) => readDodoTakerRates({ client: publicClient, ...args })),
    })
    const quoteStore = shared
      ? createRedisQuoteStore({ redis: shared })
      : createMemoryQuoteStore({ maxEntries: config.quoteCacheMaxEntries, maxBytes: config.quoteCacheMaxBytes })
    // API_KEYS_FILE is followed while the service runs (added keys work, removed keys are revoked).
    let apiKeys: ApiKeyCheck = createApiKeyCheck({ keys: devApiKey ? [devApiKey] : config.apiKeys })
    if (!devApiKey && config.apiKeysFile && config.apiKeysReloadMs > 0) {
      const fixed = new Set(config.apiKeysFromList.map((k) => k.sha256))
      const reloading = createReloadingApiKeyCheck({
        file: config.apiKeysFile,
        fixed: config.apiKeysFromList,
        initial: config.apiKeys.filter((k) => !fixed.has(k.sha256)),
        intervalMs: config.apiKeysReloadMs,
        log: (line) => marketLog(line),
      })
      stops.push(async () => reloading.close())
      apiKeys = reloading
    }
    const admission = createAdmissionControl({
      maxConcurrent: config.maxConcurrentSolves,
      maxConcurrentPerKey: config.maxConcurrentSolvesPerKey,
      maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    })
    stops.push(async () => admission.close())
    const metrics = createServiceMetrics({
      market: () => {
        const f = market.freshness()
        return {
          blockNumber: f.blockNumber,
          ageMs: f.ageMs,
          poolsInSolver: market.pools().length,
          poolsFollowed: market.followed(),
          poolsLeftOut: market.skipped().length,
          reorgs: f.reorgs,
        }
      },
      load: () => ({ solvesInFlight: admission.inFlight(), eventLoopDelayMs: admission.eventLoopDelayMs() }),
      leftOutReasons: () => market.skipped().map((s) => s.reason),
      discovery: () => market.discovery(),
      tokenScreening: () => market.tokenScreening(),
    })
    rpcErrorSink = (e) => metrics.rpcError({ node: String(config.rpcUrls.indexOf(e.url)), kind: e.kind, method: e.method })
    rpcCallSink = (e) => metrics.rpcCall({ node: String(config.rpcUrls.indexOf(e.url)), method: e.method }, e.seconds)
    redisErrorSink = (kind) => metrics.redisError(kind)
    solvedSink = (plan) => metrics.solverPhases(plan.metadata.phaseMs ?? {})
    const timedQuoteService = {
      router: quoteService.router,
      quote: async (request: Parameters<typeof quoteService.quote>[0]) => {
        const started = performance.now()
        try {
          const plan = await quoteService.quote(request)
          metrics.solve((performance.now() - started) / 1000, 'ok')
          return plan
        } catch (error) {
          metrics.solve((performance.now() - started) / 1000, 'error')
          throw error
        }
      },
    }
    // Upstream lines go to the app's logger once it exists (none are written before a request).
    let upstreamLog: (event: object, message: string, level: 'debug' | 'error') => void = () => {}
    const upstreams = await startUpstreams({
      config: config.upstreams,
      chainId: chain.chainId,
      weth: chain.weth,
      quoteService,
      getGasPriceWei,
      client: publicClient,
      l1Parameters: () => market.feesAt(undefined)?.l1,
      log: (event) => upstreamLog(event, 'upstream call', 'debug'),
      onBug: (error) => upstreamLog({ err: error }, 'upstream answer could not be handled', 'error'),
    })
    if (upstreams) stops.push(() => upstreams.close())
    const deps: SwapApiDependencies = {
      admission,
      metrics,
      quoteService: timedQuoteService,
      chainId: chain.chainId,
      weth: chain.weth,
      feeRecipient,
      maxFeeBps: config.maxFeeBps,
      apiKeys,
      limiter: shared
        ? createRedisRateLimiter({ redis: shared, limit: config.rateLimitPerMinute, windowSec: 60 })
        : createMemoryRateLimiter({ limit: config.rateLimitPerMinute, windowSec: 60 }),
      sourceLimiter: shared
        ? createRedisRateLimiter({ redis: shared, limit: config.unauthenticatedRateLimitPerMinute, windowSec: 60 })
        : createMemoryRateLimiter({ limit: config.unauthenticatedRateLimitPerMinute, windowSec: 60 }),
      quoteStore,
      quoteIssuer: createQuoteIssuer({ store: quoteStore, ttlMs: config.quoteTtlMs, signingKey: config.quoteSigningKey }),
      txDeadlineSec: config.txDeadlineSec,
      chainTimeSec: () => market.freshness().blockTimestamp,
      market,
      readiness: () =>
        readinessReport({ market, solver, maxSnapshotAgeMs: config.maxSnapshotAgeMs, redis: shared, rpc, notCovered: chain.notCovered }),
      upstreams,
    }
    const metricsServer = createMetricsServer({ registry: metrics.registry })
    stops.push(() => metricsServer.close())
    const fastify = await createSwapApp({ deps, logger, redact, onClose: stopAll, serverFactory })
    marketLog = (line) => fastify.log.info({ component: 'market' }, line)
    upstreamLog = (event, message, level) => fastify.log[level]({ component: 'upstream', ...event }, message)
    for (const line of held.splice(0)) marketLog(line)
    // Last, so everything above (the app, the metrics) exists while it runs: hours on a real chain.
    const coldStart = market.start().then(() => undefined)
    if (coldStartMode === 'await') await coldStart
    else coldStart.catch(() => undefined) // the caller handles it; never an unhandled rejection meanwhile
    return { fastify, deps, chain, publicClient, market, solver, devnet, propAmmKeeper, devApiKey, redact, rpc, metricsServer, coldStart }
  } catch (error) {
    await stopAll()
    throw error
  }
}
