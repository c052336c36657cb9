import type { SeededDevnet } from '../devnet/startSeededDevnet.ts'
import { importLaunchpadContent } from './content/importLaunchpadContent.ts'
import type { GatewayChain } from './GatewayChain.ts'
import { embeddedGatewayChain } from './embeddedGatewayChain.ts'
import { type ServiceGateway, type StartServiceGatewayParameters, startServiceGateway } from './startServiceGateway.ts'

export type StartEmbeddedGatewayParameters = Omit<StartServiceGatewayParameters, 'chains' | 'environment' | 'prepare'> & {
  /** The seeded embedded chain (its launchpad is served). */
  devnet: SeededDevnet
  /** The swap service's quote service and router: the gateway's swap routes use them (absent: no swaps). */
  swaps?: GatewayChain['swaps']
}

/** What `npm start` prints: the gateway, and a development key with every scope. */
export type EmbeddedGateway = ServiceGateway & { devKey: string }

/**
 * The gateway on the embedded seeded chain, as `npm start` runs it beside the swap service
 * (`startServiceGateway` in the `test` environment): the launchpad's documents and announcements
 * imported, and a fresh development key (Developer plan, every scope: the developer's own chain,
 * so the write routes can be tried at once).
 *
 * @example
 * const gateway = await startEmbeddedGateway({ devnet, root, port: 8081 })
 * console.log(gateway.url, gateway.devKey) // prints http://127.0.0.1:8081 gw_test_…: a Developer key with every scope
 */
export async function startEmbeddedGateway({ devnet, swaps, ...rest }: StartEmbeddedGatewayParameters): Promise<EmbeddedGateway> {
  const lp = devnet.market.launchpad
  if (!lp) throw new Error('the embedded chain has no launchpad (reseed it: npm run devnet:reseed)')
  const gateway = await startServiceGateway({
    ...rest,
    environment: 'test',
    chains: [embeddedGatewayChain({ devnet, swaps })],
    prepare: (db) =>
      importLaunchpadContent({ db, documents: lp.documents, announcements: lp.announcements, nowIso: new Date().toISOString() }),
  })
  return { ...gateway, devKey: gateway.devKey! }
}
