import { readFileSync } from 'node:fs'
import { Type } from 'typebox'
import { Value } from 'typebox/value'
import type { DexId } from '../../bindings/types.ts'
import type { ConfiguredPool } from '../adapters/PoolAdapter.ts'
import { adapterRegistry } from '../adapters/registry.ts'
import { ConfiguredPoolFile } from './loadChainConfigFile.ts'

/**
 * Reads `POOLS_FILE`: a JSON array of pools to follow besides discovery (`{ dex, address }`, V4
 * pools with their key fields), each checked, every problem listed with its index.
 *
 * @example
 * const pools = loadPoolsFile({ path: 'pools.json' }) // [{ dex: 'UNIV3', address: '0x…' }]
 */
export function loadPoolsFile({ path, text }: { path: string; text?: string }): ConfiguredPool[] {
  let json: unknown
  try {
    json = JSON.parse(text ?? readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`POOLS_FILE ${path}: ${(error as Error).message}`)
  }
  const schema = Type.Array(ConfiguredPoolFile)
  const problems = [...Value.Errors(schema, json)].map((e) => `${e.instancePath || '/'}: ${e.message}`)
  if (problems.length === 0) {
    for (const [i, pool] of (json as ConfiguredPool[]).entries())
      if (adapterRegistry[pool.dex as DexId]?.status !== 'present') problems.push(`/${i}/dex: no adapter for ${pool.dex}`)
  }
  if (problems.length > 0) throw new Error(`POOLS_FILE ${path}:\n  ${problems.join('\n  ')}`)
  return json as ConfiguredPool[]
}
