import { readFileSync } from 'node:fs'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'
import type { Address } from 'viem'
import type { DexId } from '../../bindings/types.ts'
import type { ConfiguredPool, DexDeployment } from '../adapters/PoolAdapter.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { BASE_BLOCK_TIME_SEC } from './base.ts'
import type { ChainConfig } from './ChainConfig.ts'

const AddressText = Type.String({ pattern: '^0x[a-fA-F0-9]{40}$' })
const BlockNumber = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })])
const DeploymentFile = Type.Object(
  { source: AddressText, fromBlock: Type.Optional(BlockNumber), registry: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
)

/** A configured pool as the files write it (`ConfiguredPool`). */
export const ConfiguredPoolFile = Type.Object(
  {
    dex: Type.String(),
    address: Type.String({ pattern: '^0x([a-fA-F0-9]{40}|[a-fA-F0-9]{64})$' }),
    currency0: Type.Optional(AddressText),
    currency1: Type.Optional(AddressText),
    fee: Type.Optional(Type.Integer({ minimum: 0 })),
    tickSpacing: Type.Optional(Type.Integer()),
    hooks: Type.Optional(AddressText),
    marginBps: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    router: Type.Optional(AddressText),
    bases: Type.Optional(Type.Array(AddressText, { minItems: 1, maxItems: 3 })),
    template: Type.Optional(Type.Union([Type.Literal('twocrypto-ng'), Type.Literal('tricrypto-ng')])),
  },
  { additionalProperties: false },
)

/** `CHAIN_CONFIG`: a chain the service did not seed, as an operator describes it. */
export const ChainConfigFile = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    chainId: Type.Integer({ minimum: 1 }),
    blockTimeSec: Type.Optional(Type.Integer({ minimum: 1 })),
    weth: AddressText,
    multicall3: Type.Optional(AddressText),
    opStack: Type.Optional(Type.Boolean()),
    /**
     * By DexId: the contract announcing pools (factory, V4 PoolManager) and the block to scan from,
     * or a list of them for a kind announced by several (the first is what configured pools use).
     */
    deployments: Type.Record(Type.String(), Type.Union([DeploymentFile, Type.Array(DeploymentFile, { minItems: 1 })])),
    pools: Type.Optional(Type.Array(ConfiguredPoolFile)),
    denyTokens: Type.Optional(Type.Array(AddressText)),
    /** Venues the operator knows are not followed, listed in /ready (`notCovered`). */
    notCovered: Type.Optional(
      Type.Array(Type.Object({ dex: Type.String({ minLength: 1 }), what: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
    ),
  },
  { additionalProperties: false },
)

/** The canonical Multicall3 address (the same on every chain it is deployed on). */
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11' as Address

/**
 * Reads and checks a chain config file (`CHAIN_CONFIG`): every deployment's kind must be one we
 * have an adapter for, and every problem is listed with its JSON path. Block numbers may be JSON
 * integers or decimal strings.
 *
 * @example
 * const chain = loadChainConfigFile({ path: 'chain.json' })
 * // → a ChainConfig; an Error listing every problem with its JSON path ('/deployments/FOO: …')
 */
export function loadChainConfigFile({ path, text }: { path: string; text?: string }): ChainConfig {
  let json: unknown
  try {
    json = JSON.parse(text ?? readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`CHAIN_CONFIG ${path}: ${(error as Error).message}`)
  }
  const problems = [...Value.Errors(ChainConfigFile, json)].map((e) => `${e.instancePath || '/'}: ${e.message}`)
  if (problems.length === 0) {
    const file = json as Static<typeof ChainConfigFile>
    for (const dex of Object.keys(file.deployments))
      if (adapterRegistry[dex as DexId]?.status !== 'present') problems.push(`/deployments/${dex}: no adapter for this kind`)
    for (const [dex, d] of Object.entries(file.deployments)) {
      const entry = adapterRegistry[dex as DexId]
      const lists = entry?.status === 'present' && entry.adapter.listPools !== undefined
      for (const [i, one] of (Array.isArray(d) ? d : [d]).entries())
        if (one.registry && !lists)
          problems.push(`/deployments/${dex}${Array.isArray(d) ? `/${i}` : ''}/registry: ${dex} pools are not listed from a registry`)
    }
    for (const [i, pool] of (file.pools ?? []).entries())
      if (adapterRegistry[pool.dex as DexId]?.status !== 'present') problems.push(`/pools/${i}/dex: no adapter for ${pool.dex}`)
  }
  if (problems.length > 0) throw new Error(`CHAIN_CONFIG ${path}:\n  ${problems.join('\n  ')}`)
  const file = json as Static<typeof ChainConfigFile>
  const deployment = (d: Static<typeof DeploymentFile>): DexDeployment => ({
    source: d.source as Address,
    ...(d.fromBlock !== undefined ? { fromBlock: BigInt(d.fromBlock) } : {}),
    ...(d.registry ? { registry: true } : {}),
  })
  const deployments: ChainConfig['deployments'] = {}
  for (const [dex, d] of Object.entries(file.deployments)) deployments[dex as DexId] = Array.isArray(d) ? d.map(deployment) : deployment(d)
  return {
    name: file.name,
    chainId: file.chainId,
    blockTimeSec: file.blockTimeSec ?? BASE_BLOCK_TIME_SEC,
    weth: file.weth as Address,
    multicall3: (file.multicall3 ?? MULTICALL3) as Address,
    opStack: file.opStack ?? false,
    deployments,
    pools: (file.pools ?? []) as ConfiguredPool[],
    denyTokens: (file.denyTokens ?? []) as Address[],
    notCovered: file.notCovered ?? [],
  }
}
