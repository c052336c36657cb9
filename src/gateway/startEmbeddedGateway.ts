import type { LaunchpadChain } from '../devnet/launchpad/startLaunchpadChain.ts'
import type { SeededDevnet } from '../devnet/startSeededDevnet.ts'
import { importLaunchpadContent } from './content/importLaunchpadContent.ts'
import type { GatewayChain } from './GatewayChain.ts'
import { embeddedGatewayChain } from './embeddedGatewayChain.ts'
import { type ServiceGateway, type StartServiceGatewayParameters, startServiceGateway } from './startServiceGateway.ts'

export type StartEmbeddedGatewayParameters = Omit<StartServiceGatewayParameters, 'chains' | 'environment' | 'prepare'> & {
  /** The seeded embedded chain (its launchpad is served; its swaps with `swaps`). */
  devnet: SeededDevnet
  /** The other embedded chains (4663, 143): their launchpads are served too, without swaps. */
  others?: LaunchpadChain[]
  /** The swap service's quote service and router: the gateway's swap routes use them (absent: no swaps). */
  swaps?: GatewayChain['swaps']
}

/** What `npm start` prints: the gateway, and a development key with every scope. */
export type EmbeddedGateway = ServiceGateway & { devKey: string }

/**
 * The gateway on the embedded chains, as `npm start` runs it beside the swap service
 * (`startServiceGateway` in the `test` environment): the seeded devnet's launchpad with its swaps,
 * the other embedded chains' launchpads, every launchpad's documents and announcements imported,
 * and a fresh development key (Developer plan, every scope: the developer's own chains, so the
 * write routes can be tried at once).
 *
 * @example
 * const gateway = await startEmbeddedGateway({ devnet, others: [chain4663], root, port: 8081 })
 * console.log(gateway.url, gateway.devKey) // prints http://127.0.0.1:8081 gw_test_…: a Developer key with every scope
 */
export async function startEmbeddedGateway({
  devnet,
  others = [],
  swaps,
  ...rest
}: StartEmbeddedGatewayParameters): Promise<EmbeddedGateway> {
  const chains = [embeddedGatewayChain({ devnet, swaps }), ...others.map((other) => embeddedGatewayChain({ devnet: other }))]
  const gateway = await startServiceGateway({
    ...rest,
    environment: 'test',
    chains,
    prepare: async (db) => {
      for (const { market } of [devnet, ...others]) {
        const lp = market.launchpad!
        await importLaunchpadContent({ db, documents: lp.documents, announcements: lp.announcements, nowIso: new Date().toISOString() })
      }
    },
  })
  return { ...gateway, devKey: gateway.devKey! }
}
