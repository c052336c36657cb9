import type { DexId } from '../../bindings/types.ts'
import type { DexDeployment } from '../adapters/PoolAdapter.ts'
import type { ChainConfig } from './ChainConfig.ts'

/** One announcing contract of a kind, as discovery scans it. */
export type KindDeployment = { dex: DexId; deployment: DexDeployment }

/**
 * Every deployment of a chain, a kind's several ones (Curve's twocrypto-ng and tricrypto-ng
 * factories: one kind, two factories with their own events) each on its own, in the config's order.
 *
 * @example
 * chainDeployments({ UNIV2: { source: v2 }, CURVE: [{ source: twocrypto }, { source: tricrypto }] })
 * // → [{ dex: 'UNIV2', deployment: { source: v2 } }, { dex: 'CURVE', … twocrypto }, { dex: 'CURVE', … tricrypto }]
 */
export function chainDeployments(deployments: ChainConfig['deployments']): KindDeployment[] {
  return (Object.entries(deployments) as [DexId, DexDeployment | readonly DexDeployment[]][]).flatMap(([dex, entry]) =>
    (Array.isArray(entry) ? entry : [entry as DexDeployment]).map((deployment) => ({ dex, deployment })),
  )
}

/**
 * A kind's first deployment: what a configured pool's ref is made against (UNIV4's PoolManager,
 * Infinity's CL pool manager), undefined for a kind the chain does not deploy.
 */
export function firstDeployment(deployments: ChainConfig['deployments'], dex: DexId): DexDeployment | undefined {
  const entry = deployments[dex]
  return Array.isArray(entry) ? entry[0] : (entry as DexDeployment | undefined)
}

/**
 * A chain's deployments in `CHAIN_CONFIG`'s JSON form, every one scanned from `fromBlock` (a test
 * or a bench handing the embedded chain's deployments to a service it starts).
 *
 * @example
 * deploymentsFile({ UNIV2: { source: v2, fromBlock: 5n } }, 0)
 * // → { UNIV2: [{ source: v2, fromBlock: 0 }] }
 */
export function deploymentsFile(
  deployments: ChainConfig['deployments'],
  fromBlock: number,
): Record<string, { source: string; fromBlock: number; registry?: boolean }[]> {
  const file: Record<string, { source: string; fromBlock: number; registry?: boolean }[]> = {}
  for (const { dex, deployment } of chainDeployments(deployments))
    (file[dex] ??= []).push({ source: deployment.source, fromBlock, ...(deployment.registry ? { registry: true } : {}) })
  return file
}

/**
 * A chain's deployments, every one scanned from `fromBlock` (a bench's chain that is all new).
 *
 * @example
 * scannedFrom({ UNIV2: { source: v2, fromBlock: 5n } }, 0n)
 * // → { UNIV2: [{ source: v2, fromBlock: 0n }] }
 */
export function scannedFrom(deployments: ChainConfig['deployments'], fromBlock: bigint): ChainConfig['deployments'] {
  const scanned: Partial<Record<DexId, DexDeployment[]>> = {}
  for (const { dex, deployment } of chainDeployments(deployments)) (scanned[dex] ??= []).push({ ...deployment, fromBlock })
  return scanned
}
