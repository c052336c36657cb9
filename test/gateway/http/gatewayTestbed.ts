import { embeddedGatewayChain } from '../../../src/gateway/embeddedGatewayChain.ts'
import { type SeededDevnet, startSeededDevnet } from '../../../src/devnet/startSeededDevnet.ts'
import type { ApiKeyRecord } from '../../../src/gateway/auth/ApiKeyRecord.ts'
import type { CreateKeyInput } from '../../../src/gateway/auth/createKeyStore.ts'
import { importLaunchpadContent } from '../../../src/gateway/content/importLaunchpadContent.ts'
import type { GatewayChain } from '../../../src/gateway/GatewayChain.ts'
import type { HolderProvider } from '../../../src/gateway/holders/HolderProvider.ts'
import { type RunningGateway, startGateway } from '../../../src/gateway/startGateway.ts'
import type { SqlDatabase } from '../../../src/gateway/store/SqlDatabase.ts'
import { testEngines } from '../fixtures/testDatabases.ts'

/** A running gateway over the seeded launchpad, for HTTP tests. */
export type GatewayTestbed = {
  devnet: SeededDevnet
  db: SqlDatabase
  gateway: RunningGateway
  chain: GatewayChain & { fromBlock: bigint }
  /** Issues a key through the store (as the operator's CLI does). */
  key: (input?: Partial<CreateKeyInput>) => Promise<{ key: string; record: ApiKeyRecord }>
  /** `fetch` on the running gateway. */
  get: (path: string, init?: RequestInit & { key?: string }) => Promise<Response>
  /** A JSON `POST` on the running gateway. */
  post: (path: string, body: unknown, init?: { key?: string; headers?: Record<string, string> }) => Promise<Response>
  stop: () => Promise<void>
}

/**
 * Starts the seeded devnet, a fresh database on `engine` (SQLite or the project's PostgreSQL),
 * indexes the launchpad, imports its documents and announcements, and starts the gateway on a
 * free port. `holders` replaces the holder provider (to take it down in a test); `devnet` shares a
 * running chain between testbeds; `swaps` serves swaps with a swap service's quote service;
 * `trustProxy` takes the client address from `X-Forwarded-For` (a test then picks its source).
 *
 * @example
 * const bed = await startGatewayTestbed({})
 * const res = await bed.get('/tokens', { key })
 * // → the gateway's Response for GET /tokens with that key (res.status 200, res.json() the first page)
 */
export async function startGatewayTestbed({
  engine = 'sqlite',
  holders,
  devnet: given,
  swaps,
  trustProxy,
}: {
  engine?: 'sqlite' | 'postgres'
  holders?: (db: SqlDatabase) => HolderProvider
  devnet?: SeededDevnet
  swaps?: GatewayChain['swaps']
  trustProxy?: boolean
}): Promise<GatewayTestbed> {
  const devnet = given ?? (await startSeededDevnet({}))
  const db = await testEngines.find((e) => e.name === engine)!.open()
  const lp = devnet.market.launchpad!
  const chain = embeddedGatewayChain({ devnet, swaps })
  await importLaunchpadContent({ db, documents: lp.documents, announcements: lp.announcements, nowIso: new Date().toISOString() })
  const gateway = await startGateway({ db, chains: [chain], holders: holders?.(db), indexer: { pollIntervalMs: 200 }, trustProxy })
  return {
    devnet,
    db,
    gateway,
    chain,
    key: (input = {}) =>
      gateway.deps.keys.create({
        plan: 'developer',
        scopes: ['tokens:read', 'wallets:read', 'holders:read', 'config:read', 'transactions:read'],
        owner: 'tests@example.com',
        ...input,
      }),
    get: (path, { key, headers, ...init } = {}) =>
      fetch(`${gateway.url}${path}`, {
        ...init,
        headers: { ...(key ? { 'x-api-key': key } : {}), ...(headers as Record<string, string> | undefined) },
      }),
    post: (path, body, { key, headers } = {}) =>
      fetch(`${gateway.url}${path}`, {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}), ...headers },
      }),
    stop: async () => {
      await gateway.close()
      await db.close()
      if (!given) await devnet.stop()
    },
  }
}
