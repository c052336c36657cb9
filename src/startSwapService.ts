import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import { type Address, createPublicClient, getAddress, http, type PublicClient } from 'viem'
import { loadSolver, type Solver } from '../bindings/index.ts'
import { base } from './chains/base.ts'
import type { ChainConfig } from './chains/ChainConfig.ts'
import { type DevnetFile, devnetChainConfig } from './chains/devnetChainConfig.ts'
import { configSecretRedactor } from './config/configSecretRedactor.ts'
import { feeRecipientProblems } from './config/feeRecipientProblems.ts'
import { type Config, ConfigError } from './config/loadConfig.ts'
import { compiledContractsPath } from './devnet/compiledContractsPath.ts'
import { type SeededDevnet, startSeededDevnet } from './devnet/startSeededDevnet.ts'
import { createApiKeyCheck } from './http/auth/createApiKeyCheck.ts'
import { createSwapApp } from './http/createSwapApp.ts'
import { readinessReport } from './http/readinessReport.ts'
import { createQuoteIssuer } from './http/quotes/createQuoteIssuer.ts'
import { createMemoryQuoteStore } from './http/quotes/createQuoteStore.ts'
import type { SwapApiDependencies } from './http/SwapApiDependencies.ts'
import { createMemoryRateLimiter } from './limits/createMemoryRateLimiter.ts'
import { createMarketState, type MarketState } from './market/createMarketState.ts'
import { createCachedGasPrice } from './quote/createCachedGasPrice.ts'
import { createQuoteService } from './quote/createQuoteService.ts'
import type { SecretRedactor } from './logging/createSecretRedactor.ts'
import { startUpstreams } from './upstream/startUpstreams.ts'

export type StartSwapServiceParameters = {
  config: Config
  logger?: FastifyServerOptions['logger'] | false
  /** Where the embedded chain's description goes (default `<repo>/var/devnet.json`). */
  devnetDescriptionPath?: string
}

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
  /** The generated development key when no key was configured (embedded chain only). */
  devApiKey?: string
  /** The redactor every log line of the service goes through (the configuration's secrets and the development key). */
  redact: SecretRedactor
}

/**
 * Wires the service: the embedded seeded chain (unless `config.rpcUrl`), the solver, the market
 * state (cold start, then polling), the quote service and the HTTP app. Throws `ConfigError` when
 * `FEE_RECIPIENT` is the router (known only here for the embedded chain). Closing the app stops the
 * market polling, releases the solver and stops the embedded chain, in that order.
 *
 * @example
 * const service = await startSwapService({ config: loadConfig(process.env), logger: { level: 'info' } })
 * await service.fastify.listen({ host: '127.0.0.1', port: 8080 })
 * await service.fastify.close() // and the market, the solver, the chain
 */
export async function startSwapService({ config, logger = false, devnetDescriptionPath }: StartSwapServiceParameters): Promise<SwapService> {
  const stops: (() => Promise<void>)[] = []
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
  // Generated first so the redactor knows it from the first log line on.
  const devApiKey = config.apiKeys.length === 0 ? `dev_${randomBytes(16).toString('hex')}` : undefined
  const redact = configSecretRedactor({ config, extraApiKeys: devApiKey ? [devApiKey] : [] })
  try {
    let devnet: SeededDevnet | undefined
    let chain: ChainConfig
    let publicClient: PublicClient
    let router: Address
    let feeRecipient = config.feeRecipient
    if (config.rpcUrl) {
      chain = { ...base, rpcUrl: config.rpcUrl, router: config.routerAddress }
      publicClient = createPublicClient({ transport: http(config.rpcUrl, { timeout: 10_000 }) }) as PublicClient
      router = getAddress(config.routerAddress as Address)
    } else {
      devnet = await startSeededDevnet({ descriptionPath: devnetDescriptionPath ?? join(compiledContractsPath().root, 'var', 'devnet.json') })
      const started = devnet
      stops.push(() => started.stop())
      chain = devnetChainConfig({ file: devnet.market as unknown as DevnetFile })
      publicClient = devnet.publicClient as unknown as PublicClient
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
    const market = createMarketState({
      client: publicClient,
      chain,
      solver,
      maxSnapshotAgeMs: config.maxSnapshotAgeMs,
      pollIntervalMs: config.marketPollIntervalMs,
      log: (line) => marketLog(line),
      redact,
    })
    stops.push(() => market.stop())
    await market.start()

    const getGasPriceWei = createCachedGasPrice({ read: () => publicClient.getGasPrice() })
    const quoteService = createQuoteService({ solver, market, chainId: chain.chainId, weth: chain.weth, router, getGasPriceWei })
    // Upstream lines go to the app's logger once it exists (none are written before a request).
    let upstreamLog: (event: object, message: string, level: 'debug' | 'error') => void = () => {}
    const upstreams = await startUpstreams({
      config: config.upstreams, chainId: chain.chainId, weth: chain.weth, quoteService, getGasPriceWei, client: publicClient,
      log: (event) => upstreamLog(event, 'upstream call', 'debug'),
      onBug: (error) => upstreamLog({ err: error }, 'upstream answer could not be handled', 'error'),
    })
    if (upstreams) stops.push(() => upstreams.close())
    const quoteStore = createMemoryQuoteStore({ maxEntries: config.quoteCacheMaxEntries, maxBytes: config.quoteCacheMaxBytes })
    const deps: SwapApiDependencies = {
      quoteService,
      chainId: chain.chainId,
      weth: chain.weth,
      feeRecipient,
      maxFeeBps: config.maxFeeBps,
      apiKeys: createApiKeyCheck({ keys: devApiKey ? [devApiKey] : config.apiKeys }),
      limiter: createMemoryRateLimiter({ limit: config.rateLimitPerMinute, windowSec: 60 }),
      quoteStore,
      quoteIssuer: createQuoteIssuer({ store: quoteStore, ttlMs: config.quoteTtlMs, signingKey: config.quoteSigningKey }),
      txDeadlineSec: config.txDeadlineSec,
      chainTimeSec: () => market.freshness().blockTimestamp,
      readiness: () => readinessReport({ market, solver, maxSnapshotAgeMs: config.maxSnapshotAgeMs }),
      upstreams,
    }
    const fastify = await createSwapApp({ deps, logger, redact, onClose: stopAll })
    marketLog = (line) => fastify.log.info({ component: 'market' }, line)
    upstreamLog = (event, message, level) => fastify.log[level]({ component: 'upstream', ...event }, message)
    for (const line of held.splice(0)) marketLog(line)
    return { fastify, deps, chain, publicClient, market, solver, devnet, devApiKey, redact }
  } catch (error) {
    await stopAll()
    throw error
  }
}
