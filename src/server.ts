import { existsSync } from 'node:fs'
import { inspect } from 'node:util'
import { gatewayListenAddress, listenAddress } from './config/listenAddress.ts'
import type { LaunchpadChain } from './devnet/launchpad/startLaunchpadChain.ts'
import { type GatewayLoadingProgress, gatewayLoadingAnswers } from './gateway/http/gatewayLoadingAnswers.ts'
import type { ServiceGateway } from './gateway/startServiceGateway.ts'
import { type LoadingServer, listenWhileLoading } from './http/listenWhileLoading.ts'
import type { SwapService } from './startSwapService.ts'

// What `npm start` runs: the swap service on the embedded seeded chain (or RPC_URL), listening on
// HOST:PORT, closed gracefully on SIGINT/SIGTERM (server, market polling, solver, chain).
// The port is bound first, before anything else is imported (the configuration's schema included:
// seconds of compiling and loading): `/health` answers 200 from then on and `/ready` 503
// `phase: 'loading'` (listenWhileLoading.ts) until the service is loaded and Fastify is handed the
// same server. The launch gateway's port likewise: its `/health` 200 with `ready: false` and the
// progress (gatewayLoadingAnswers.ts), the rest 503, until the gateway is started and handed it.

const signals = ['SIGINT', 'SIGTERM'] as const
const listenersBefore = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]))
const listen = async ({ host, port }: { host: string; port: number }): Promise<LoadingServer> => {
  try {
    const server = await listenWhileLoading({ host, port })
    process.stdout.write(`swap service loading, listening on ${server.url} (/health 200; /ready and the API 503 until it is loaded)\n`)
    return server
  } catch (error) {
    console.error(`listen failed on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
// A malformed HOST or PORT is not bound: the configuration names it below.
const address = listenAddress(process.env)
const loading = address ? await listen(address) : undefined
const gatewayProgress: GatewayLoadingProgress = { phase: 'loading' }
const listenGateway = async ({ host, port }: { host: string; port: number }): Promise<LoadingServer> => {
  let url = ''
  const publicUrl = process.env.GATEWAY_PUBLIC_URL || undefined
  const answers = gatewayLoadingAnswers({ progress: gatewayProgress, problemsBaseUrl: () => `${publicUrl ?? url}/problems` })
  try {
    const server = await listenWhileLoading({ host, port, answers })
    url = server.url
    process.stdout.write(`launch gateway loading, listening on ${url} (/health 200 with its progress; the rest 503 until it is started)\n`)
    return server
  } catch (error) {
    console.error(`listen failed on ${host}:${port} (GATEWAY_PORT): ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
// Bound only when `npm start` will start the gateway (the embedded chain, or GATEWAY_CHAIN_CONFIG).
const gatewayAddress = loading ? gatewayListenAddress(process.env) : undefined
const loadingGateway = gatewayAddress ? await listenGateway(gatewayAddress) : undefined
// Stopped while loading: nothing runs yet but the port (and the embedded chains, whose own
// handlers stop them); replaced by the graceful close below once the service is up.
for (const signal of signals) process.once(signal, () => process.exit(0))
// Tests only (test/http/serverLoading.test.ts): nothing more is loaded until this file exists.
const holdFile = process.env.SERVER_TEST_HOLD_LOADING
while (holdFile && !existsSync(holdFile)) await new Promise((resolve) => setTimeout(resolve, 50))

const { ConfigError, loadConfig } = await import('./config/loadConfig.ts')
const { configSecretRedactor } = await import('./config/configSecretRedactor.ts')
let config
try {
  config = loadConfig(process.env)
} catch (error) {
  if (error instanceof ConfigError) {
    // Config errors name the variable and never print a secret's value (loadConfig).
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
const bound = loading ?? (await listen(config))
gatewayProgress.phase = 'waiting_for_swap_service'

const { compiledContractsPath } = await import('./artifacts/compiledContractsPath.ts')
const { connectGatewayChain } = await import('./gateway/chains/connectGatewayChain.ts')
const { startLaunchpadChains } = await import('./devnet/launchpad/startLaunchpadChain.ts')
const { startEmbeddedGateway } = await import('./gateway/startEmbeddedGateway.ts')
const { startServiceGateway } = await import('./gateway/startServiceGateway.ts')
const { startSwapService } = await import('./startSwapService.ts')
let service: SwapService
// The gateway's other embedded chains (4663, 143: docs/gateway/chains.md), started beside the swap
// service's (a settled promise, so a failure waits for its turn below).
const othersStarting =
  config.rpcUrl || config.gatewayChains
    ? Promise.resolve({ chains: [] as LaunchpadChain[] })
    : startLaunchpadChains().then(
        (chains) => ({ chains }),
        (error: unknown) => ({ chains: [] as LaunchpadChain[], error }),
      )
let others: LaunchpadChain[]
try {
  // The cold start runs in the background: the server listens from the first second (/health 200,
  // /ready 503 with the discovery's progress), quotes are refused until the market is at the head.
  // On the embedded chain its prop AMM venues are re-priced every block time by their keeper.
  service = await startSwapService({
    config,
    logger: { level: config.logLevel },
    coldStart: 'background',
    propAmmKeeperIntervalMs: 2_000,
    serverFactory: bound.serverFactory,
  })
  const started = await othersStarting
  if ('error' in started) throw started.error
  others = started.chains
} catch (error) {
  // A setting only checkable once the chain is known (FEE_RECIPIENT equal to the router) names itself.
  if (error instanceof ConfigError) console.error(error.message)
  // Not through the logger (there is none yet), so redacted here: viem's errors carry RPC_URL.
  else
    process.stderr.write(
      `swap service failed to start: ${configSecretRedactor({ config })(inspect(error, { depth: 6, breakLength: Infinity }))}\n`,
    )
  process.exit(1)
}
// The embedded chain installs SIGINT/SIGTERM handlers that kill anvil and exit at once (its safety
// net for scripts). The service closes in order instead, so those handlers are replaced by ours;
// its exit handler stays, so anvil still dies if the close below fails or times out.
for (const signal of signals) {
  for (const listener of process.listeners(signal))
    if (!listenersBefore.get(signal)!.has(listener)) process.removeListener(signal, listener)
}
const { fastify, devnet, devApiKey, deps, redact, metricsServer } = service
// Ready (startSwapService awaited it): the app answers on the port from now on.
bound.handOver()
// A crash still goes through the (redacting) logger: Node's own report would print viem's error,
// RPC URL included, as it is. Same outcome as Node's default otherwise: exit 1.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    fastify.log.fatal({ err: error }, event)
    process.exit(1)
  })
}

// The launch gateway (docs/gateway/) runs beside the swap service: on the embedded chain, or on
// the chains of GATEWAY_CHAIN_CONFIG (the only way it knows a real chain's launchpad).
let gateway: ServiceGateway | undefined
let closing = false
const close = async (signal: string) => {
  if (closing) return
  closing = true
  fastify.log.info({ signal }, 'closing')
  const timer = setTimeout(() => {
    fastify.log.error('graceful close took more than 10 s: exiting')
    process.exit(1)
  }, 10_000)
  timer.unref()
  try {
    await gateway?.close()
    await Promise.all(others.map((chain) => chain.stop()))
    // Fastify does not close a server it was handed: closed here, beside it (the gateway's too).
    const serverClosed = bound.close()
    await loadingGateway?.close()
    await fastify.close()
    await serverClosed
    process.exit(0)
  } catch (error) {
    fastify.log.error({ err: error }, 'close failed')
    process.exit(1)
  }
}
for (const signal of signals) process.once(signal, () => void close(signal))

let metricsUrl: string
try {
  metricsUrl = await metricsServer.listen({ host: config.host, port: config.metricsPort })
} catch (error) {
  fastify.log.error({ err: error }, 'listen failed')
  await fastify.close()
  process.exit(1)
}
// A cold start that fails (a node refusing every range, a store of another chain) ends the process
// as a failed start did before: logged, closed, exit 1. The embedded chain's takes a second: its
// banner (and its gateway) wait for it, so the printed quote works when it is shown.
const coldStartFailed = async (error: unknown) => {
  fastify.log.fatal({ err: error }, 'cold start failed')
  await fastify.close().catch(() => undefined)
  process.exit(1)
}
if (devnet) await service.coldStart.catch(coldStartFailed)
else service.coldStart.then(() => fastify.log.info({ component: 'market' }, 'cold start done: quotes are served'), coldStartFailed)
const { url } = bound

if (devnet || config.gatewayChains) {
  const common = {
    host: config.host,
    port: config.gatewayPort,
    databaseUrl: config.gatewayDatabaseUrl,
    ipfs: config.ipfsApiUrl ? { apiUrl: config.ipfsApiUrl, timeoutMs: config.ipfsTimeoutMs } : undefined,
    root: compiledContractsPath().root,
    logger: { level: config.logLevel },
    redact,
    redisUrl: config.redisUrl,
    trustProxy: config.gatewayTrustProxy,
    publicUrl: config.gatewayPublicUrl,
    cursorSecret: config.gatewayCursorSecret,
  }
  const swaps = { router: deps.quoteService.router, quote: deps.quoteService.quote }
  gatewayProgress.phase = 'starting'
  // On the port bound at the first second (when it was: a malformed GATEWAY_PORT is named by the
  // configuration before this), with the indexers' positions shown there while they catch up.
  const early = loadingGateway && {
    serverFactory: loadingGateway.serverFactory,
    onIndexers: (status: NonNullable<GatewayLoadingProgress['indexers']>) => {
      gatewayProgress.indexers = status
      gatewayProgress.phase = 'indexing'
    },
  }
  try {
    if (config.gatewayChains) {
      const swapService = { chainId: deps.chainId, client: service.publicClient, ...swaps }
      const chains = await Promise.all(
        config.gatewayChains.map((settings) => connectGatewayChain({ settings, swapService, rpcTimeoutMs: config.rpcTimeoutMs })),
      )
      gateway = await startServiceGateway({ ...common, ...early, chains, environment: devnet ? 'test' : 'live' })
    } else gateway = await startEmbeddedGateway({ ...common, ...early, devnet: devnet!, others, swaps })
    // Started (its development key issued): the gateway answers on its port from now on.
    loadingGateway?.handOver()
  } catch (error) {
    fastify.log.error({ err: error }, 'launch gateway failed to start')
    await fastify.close()
    process.exit(1)
  }
}
// Bound early for a gateway the configuration then did not start: not left answering 503.
if (!gateway) await loadingGateway?.close()
const lines = [`swap service listening on ${url} (chain ${deps.chainId}, router ${deps.quoteService.router})`]
if (devnet)
  lines.push(
    `embedded chain: ${devnet.market.rpcUrl} (anvil pid ${devnet.anvil.pid}, ${devnet.market.pools.length} seeded pools; var/devnet.json)`,
    ...others.map(
      (c) =>
        `embedded chain ${c.market.chainId}: ${c.anvil.url} (anvil pid ${c.anvil.pid}, its launchpad only, ${c.market.launchpad.tokens.length} seeded launches)`,
    ),
  )
else if (config.rpcUrl) lines.push(`chain: ${redact(config.rpcUrl)}`)
lines.push(`metrics: ${metricsUrl} (METRICS_PORT, not on the API's port)`)
if (deps.upstreams)
  lines.push(
    `upstream aggregators for /quote/compare and /quote/split: ${deps.upstreams.sourceIds.join(', ')}${config.upstreams.demo ? ' (UPSTREAMS_DEMO=1: local stand-ins, simulated prices)' : ''}`,
  )
if (devApiKey) lines.push(`development API key: ${devApiKey}`)
if (gateway)
  lines.push(
    `launch gateway listening on ${gateway.url} (problem+json; GET /openapi.json), chains ${[...gateway.deps.chains.keys()].join(', ')}${gateway.devKey ? `, development key: ${gateway.devKey}` : ' (keys: npm run gateway:keys)'}`,
    `  curl -s ${gateway.url}/tokens?sort=trending -H 'x-api-key: ${gateway.devKey ?? '<GATEWAY_KEY>'}'`,
    `  metadata documents pinned to ${config.ipfsApiUrl ? `the Kubo node at ${config.ipfsApiUrl}` : 'the embedded blockstore, var/ipfs/blocks (IPFS_API_URL: a Kubo node)'}`,
  )
else
  lines.push(
    "launch gateway: not started (RPC_URL without GATEWAY_CHAIN_CONFIG: it needs its launchpad's addresses; docs/gateway/chains.md)",
  )
if (deps.feeRecipient) lines.push(`integrator fees go to ${deps.feeRecipient}, at most ${deps.maxFeeBps} bps (a key's own settings win)`)
if (devnet) {
  const { WETH, USDC } = devnet.market.tokens
  if (WETH && USDC) {
    const body = JSON.stringify({
      chainId: deps.chainId,
      tokenIn: WETH.address,
      tokenOut: USDC.address,
      amountIn: '1000000000000000000',
      slippageBps: 50,
    })
    lines.push(
      'try a quote (1 WETH -> USDC):',
      `  curl -s -X POST ${url}/quote -H 'content-type: application/json' -H 'x-api-key: ${devApiKey ?? '<API_KEY>'}' -d '${body}'`,
    )
  }
}
// Printed on stdout, not through the logger: the development key must never reach the logs (and
// the logger's redaction would hide it from the banner).
process.stdout.write(`${lines.join('\n')}\n`)
