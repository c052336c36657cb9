import type { Log } from 'viem'
import { curve } from './curve.ts'
import { curveCrypto } from './curveCrypto.ts'
import { curveTricrypto } from './curveTricrypto.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'

/** Each template's adapter; StableSwap where none is named. */
const byTemplate = { 'twocrypto-ng': curveCrypto, 'tricrypto-ng': curveTricrypto } as const
const ofTemplate = (template: keyof typeof byTemplate | undefined): PoolAdapter => (template ? byTemplate[template] : curve)
const of = (ref: PoolRef): PoolAdapter => ofTemplate(ref.curveTemplate)
/** The adapter whose factory event `log` is. */
const discoveredBy = (log: Log): PoolAdapter =>
  [curveCrypto, curveTricrypto].find((adapter) => log.topics[0] !== undefined && adapter.discoveryTopics.includes(log.topics[0])) ?? curve

/**
 * The CURVE kind: Curve's StableSwap pools (`curve.ts`, priced exactly) and its twocrypto-ng and
 * tricrypto-ng CryptoSwap pools (`curveCrypto.ts`, `curveTricrypto.ts`, priced from their own `get_dy`
 * through the sampled model) under
 * one DexId, each pool read, followed and executed by its template's adapter (`PoolRef.curveTemplate`,
 * set by the discovery event that announced it or by a configured pool's `template`).
 *
 * @example
 * const leg = curveKinds.encodeLeg(ref, { tokenIn, tokenOut }) // StableSwap: { kind: 'curve', pool, i, j }; CryptoSwap: also indexType: 'uint256'
 */
export const curveKinds: PoolAdapter = {
  dex: 'CURVE',
  legKind: 'curve',
  discoveryTopics: [...curve.discoveryTopics, ...curveCrypto.discoveryTopics, ...curveTricrypto.discoveryTopics],
  poolFromDiscoveryLog: (log) => discoveredBy(log).poolFromDiscoveryLog(log),
  // Only the StableSwap factories keep a registry whose events do not name the pool.
  listPools: curve.listPools,
  stateTopics: [...new Set([...curve.stateTopics, ...curveCrypto.stateTopics, ...curveTricrypto.stateTopics])],
  poolIdOfStateLog: (log) => log.address.toLowerCase(),
  refOfConfiguredPool: (pool, deployment) => ofTemplate(pool.template).refOfConfiguredPool(pool, deployment),
  readPool: (parameters) => of(parameters.ref).readPool(parameters),
  encodeLeg: (ref, direction) => of(ref).encodeLeg(ref, direction),
}
