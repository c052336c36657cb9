import type { Log } from 'viem'
import { curve } from './curve.ts'
import { curveCrypto } from './curveCrypto.ts'
import type { PoolAdapter, PoolRef } from './PoolAdapter.ts'

/** The template's adapter: CryptoSwap where the ref says so, StableSwap otherwise. */
const of = (ref: PoolRef): PoolAdapter => (ref.curveTemplate === 'twocrypto-ng' ? curveCrypto : curve)
const isCryptoDiscovery = (log: Log) => log.topics[0] !== undefined && curveCrypto.discoveryTopics.includes(log.topics[0])

/**
 * The CURVE kind: Curve's StableSwap pools (`curve.ts`, priced exactly) and its twocrypto-ng
 * CryptoSwap pools (`curveCrypto.ts`, priced from their own `get_dy` through the sampled model) under
 * one DexId, each pool read, followed and executed by its template's adapter (`PoolRef.curveTemplate`,
 * set by the discovery event that announced it or by a configured pool's `template`).
 *
 * @example
 * const leg = curveKinds.encodeLeg(ref, { tokenIn, tokenOut }) // StableSwap: { kind: 'curve', pool, i, j }; twocrypto-ng: also indexType: 'uint256'
 */
export const curveKinds: PoolAdapter = {
  dex: 'CURVE',
  legKind: 'curve',
  discoveryTopics: [...curve.discoveryTopics, ...curveCrypto.discoveryTopics],
  poolFromDiscoveryLog: (log) => (isCryptoDiscovery(log) ? curveCrypto : curve).poolFromDiscoveryLog(log),
  stateTopics: [...new Set([...curve.stateTopics, ...curveCrypto.stateTopics])],
  poolIdOfStateLog: (log) => log.address.toLowerCase(),
  refOfConfiguredPool: (pool, deployment) => (pool.template === 'twocrypto-ng' ? curveCrypto : curve).refOfConfiguredPool(pool, deployment),
  readPool: (parameters) => of(parameters.ref).readPool(parameters),
  encodeLeg: (ref, direction) => of(ref).encodeLeg(ref, direction),
}
