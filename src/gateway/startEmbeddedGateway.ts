import { mkdirSync } from 'node:fs'
import { dirname, isAbsolute } from 'node:path'
import type { SeededDevnet } from '../devnet/startSeededDevnet.ts'
import { SCOPES } from './auth/scopes.ts'
import type { GatewayChain } from './GatewayChain.ts'
import { embeddedGatewayChain } from './embeddedGatewayChain.ts'
import { createBlockstorePinner } from './documents/createBlockstorePinner.ts'
import { createKuboPinner } from './documents/createKuboPinner.ts'
import { importLaunchpadContent } from './content/importLaunchpadContent.ts'
import { type RunningGateway, startGateway } from './startGateway.ts'
import { openDatabase } from './store/openDatabase.ts'
import { connectRedis } from '../limits/redis/connectRedis.ts'

export type StartEmbeddedGatewayParameters = {
  /** The seeded embedded chain (its launchpad is served). */
  devnet: SeededDevnet
  host?: string
  port?: number
  /** SQLite path or `postgres://…` URL; default `<root>/var/gateway.sqlite`. */
  databaseUrl?: string
  root: string
  /** A Kubo node's RPC API to pin metadata documents to; absent: the blockstore in `<root>/var/ipfs/blocks`. */
  ipfs?: { apiUrl: string; timeoutMs: number }
  logger?: Parameters<typeof startGateway>[0]['logger']
  /** The swap service's quote service and router: the gateway's swap routes use them (absent: no swaps). */
  swaps?: GatewayChain['swaps']
  /** The swap service's redactor (its secrets may reach the gateway's lines too). */
  redact?: Parameters<typeof startGateway>[0]['redact']
  /** A Redis shared by every instance (`REDIS_URL`): the limiter runs there; unset: in memory. */
  redisUrl?: string
  /** `GATEWAY_TRUST_PROXY`, `GATEWAY_PUBLIC_URL`, `GATEWAY_CURSOR_SECRET` (README settings). */
  trustProxy?: Parameters<typeof startGateway>[0]['trustProxy']
  publicUrl?: string
  cursorSecret?: string
}

/** What `npm start` prints: the gateway, and a development key with every scope. */
export type EmbeddedGateway = RunningGateway & { devKey: string }

/** The label of the development keys `npm start` issues (the previous one is revoked at each start). */
const DEV_KEY_LABEL = 'development (npm start)'

/**
 * The gateway on the embedded seeded chain, as `npm start` runs it beside the swap service: the
 * read model in `var/gateway.sqlite` (kept across starts: the indexer resumes, and the chain
 * reloaded from its dump is checked for a fork like any other), the launchpad's documents and
 * announcements imported, and a fresh development key (Developer plan, every scope: the developer's own chain, so the write routes can be tried at once). `close`
 * also closes the database.
 *
 * @example
 * const gateway = await startEmbeddedGateway({ devnet, root, port: 8081 })
 * console.log(gateway.url, gateway.devKey) // prints http://127.0.0.1:8081 gw_test_…: a Developer key with every scope
 */
export async function startEmbeddedGateway({
  devnet,
  host,
  port = 8081,
  databaseUrl,
  root,
  ipfs,
  logger,
  redact,
  swaps,
  redisUrl,
  trustProxy,
  publicUrl,
  cursorSecret,
}: StartEmbeddedGatewayParameters): Promise<EmbeddedGateway> {
  const lp = devnet.market.launchpad
  if (!lp) throw new Error('the embedded chain has no launchpad (reseed it: npm run devnet:reseed)')
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
    await importLaunchpadContent({ db, documents: lp.documents, announcements: lp.announcements, nowIso: new Date().toISOString() })
    const chainId = devnet.market.chainId
    const gateway = await startGateway({
      db,
      host,
      port,
      logger,
      redact,
      // The developer's own chain: its development key is a test key.
      environment: 'test',
      redis,
      trustProxy,
      publicUrl,
      cursorSecret: cursorSecret === undefined ? undefined : Buffer.from(cursorSecret, 'utf8'),
      ipfs: ipfs ? createKuboPinner(ipfs) : await createBlockstorePinner({ dir: `${root}/var/ipfs/blocks` }),
      chains: [embeddedGatewayChain({ devnet, swaps })],
    })
    for (const old of await gateway.deps.keys.list())
      if (old.label === DEV_KEY_LABEL && old.status === 'active') await gateway.deps.keys.setStatus(old.prefix, 'revoked')
    const { key } = await gateway.deps.keys.create({
      environment: 'test',
      plan: 'developer',
      scopes: SCOPES,
      owner: 'local',
      label: DEV_KEY_LABEL,
    })
    return {
      ...gateway,
      devKey: key,
      close: async () => {
        await gateway.close()
        await db.close()
        await redis?.close()
      },
    }
  } catch (error) {
    await db.close()
    await redis?.close()
    throw error
  }
}
