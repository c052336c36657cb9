import { mkdirSync } from 'node:fs'
import { dirname, isAbsolute } from 'node:path'
import { SCOPES } from './auth/scopes.ts'
import { createBlockstorePinner } from './documents/createBlockstorePinner.ts'
import { createKuboPinner } from './documents/createKuboPinner.ts'
import type { GatewayChain } from './GatewayChain.ts'
import { type RunningGateway, startGateway } from './startGateway.ts'
import { openDatabase } from './store/openDatabase.ts'
import { connectRedis } from '../limits/redis/connectRedis.ts'
import type { SqlDatabase } from './store/SqlDatabase.ts'

export type StartServiceGatewayParameters = {
  /** The chains served: the embedded ones, or `GATEWAY_CHAIN_CONFIG`'s. */
  chains: (GatewayChain & { fromBlock: bigint })[]
  host?: string
  port?: number
  /** `startGateway`'s: the port bound before the service loaded, and the indexers' positions meanwhile. */
  serverFactory?: Parameters<typeof startGateway>[0]['serverFactory']
  onIndexers?: Parameters<typeof startGateway>[0]['onIndexers']
  /** SQLite path or `postgres://…` URL; default `<root>/var/gateway.sqlite`. */
  databaseUrl?: string
  root: string
  /** A Kubo node's RPC API to pin metadata documents to; absent: the blockstore in `<root>/var/ipfs/blocks`. */
  ipfs?: { apiUrl: string; timeoutMs: number }
  logger?: Parameters<typeof startGateway>[0]['logger']
  /** The swap service's redactor (its secrets may reach the gateway's lines too). */
  redact?: Parameters<typeof startGateway>[0]['redact']
  /** `test` on the developer's own chains (a development key is then issued); `live` otherwise (keys from the operator's CLI). */
  environment: 'live' | 'test'
  /** Run on the opened database before the gateway starts (the embedded launchpad's documents). */
  prepare?: (db: SqlDatabase) => Promise<unknown>
  /** A Redis shared by every instance (`REDIS_URL`): the limiter runs there; unset: in memory. */
  redisUrl?: string
  /** `GATEWAY_TRUST_PROXY`, `GATEWAY_PUBLIC_URL`, `GATEWAY_CURSOR_SECRET` (README settings). */
  trustProxy?: Parameters<typeof startGateway>[0]['trustProxy']
  publicUrl?: string
  cursorSecret?: string
}

/** The gateway as `npm start` runs it; `devKey` only in the `test` environment. */
export type ServiceGateway = RunningGateway & { devKey?: string }

/** The label of the development keys `npm start` issues (the previous one is revoked at each start). */
const DEV_KEY_LABEL = 'development (npm start)'

/**
 * The gateway beside the swap service, on whatever chains it is given: the read model in
 * `var/gateway.sqlite` (or `databaseUrl`; kept across starts: the indexers resume, and a chain
 * reloaded from a dump is checked for a fork like any other), documents pinned to Kubo or the
 * blockstore in `var/ipfs/blocks`. In the `test` environment a fresh development key is issued
 * (Developer plan, every scope: the developer's own chain) and the previous one revoked. `close`
 * also closes the database.
 *
 * @example
 * const gateway = await startServiceGateway({ chains, root, port: 8081, environment: 'live' })
 * console.log(gateway.url) // prints http://127.0.0.1:8081; keys come from `npm run gateway:keys`
 */
export async function startServiceGateway({
  chains,
  host,
  port = 8081,
  serverFactory,
  onIndexers,
  databaseUrl,
  root,
  ipfs,
  logger,
  redact,
  environment,
  prepare,
  redisUrl,
  trustProxy,
  publicUrl,
  cursorSecret,
}: StartServiceGatewayParameters): Promise<ServiceGateway> {
  const url = databaseUrl ?? `${root}/var/gateway.sqlite`
  if (!/^postgres(ql)?:\/\//.test(url) && isAbsolute(url)) mkdirSync(dirname(url), { recursive: true })
  const db = await openDatabase({ url })
  // Its own connection (not the swap service's): the gateway's limits under their own prefix.
  const redis = redisUrl
    ? await connectRedis({ url: redisUrl }).catch(async (error) => {
        await db.close()
        throw error
      })
    : undefined
  try {
    await prepare?.(db)
    const gateway = await startGateway({
      db,
      host,
      port,
      serverFactory,
      onIndexers,
      logger,
      redact,
      environment,
      redis,
      trustProxy,
      publicUrl,
      cursorSecret: cursorSecret === undefined ? undefined : Buffer.from(cursorSecret, 'utf8'),
      ipfs: ipfs ? createKuboPinner(ipfs) : await createBlockstorePinner({ dir: `${root}/var/ipfs/blocks` }),
      chains,
    })
    const close = async () => {
      await gateway.close()
      await db.close()
      await redis?.close()
    }
    if (environment === 'live') return { ...gateway, close }
    for (const old of await gateway.deps.keys.list())
      if (old.label === DEV_KEY_LABEL && old.status === 'active') await gateway.deps.keys.setStatus(old.prefix, 'revoked')
    const { key } = await gateway.deps.keys.create({
      environment: 'test',
      plan: 'developer',
      scopes: SCOPES,
      owner: 'local',
      label: DEV_KEY_LABEL,
    })
    return { ...gateway, devKey: key, close }
  } catch (error) {
    await db.close()
    await redis?.close()
    throw error
  }
}
