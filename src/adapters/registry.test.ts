import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'vitest'
import { adapterRegistry } from './registry.ts'

/** The spec's DexId list (spec 000, "Scalar types"), copied verbatim. */
const SPEC_DEX_IDS = [
  'UNIV2',
  'UNIV3',
  'UNIV4',
  'AERODROME_V2LIKE',
  'AERODROME_CL',
  'PANCAKE_V2',
  'PANCAKE_V3',
  'PANCAKE_INFINITY_CL',
  'HYDREX',
  'QUICKSWAP_V4',
  'ALIEN_BASE_V3',
  'CURVE',
  'PROPSWAP',
  'TESSERA',
  'ELFOMOFI',
  'LUNARBASE',
  'FELTIR',
  'DODO_V2',
  'WOOFI',
  'GYROSCOPE_ECLP',
  'MAVERICK_V2',
]

test('every spec DexId has a registry entry, and nothing else does', () => {
  const missing = SPEC_DEX_IDS.filter((dex) => !(dex in adapterRegistry))
  assert.deepEqual(missing, [], `spec DexIds without a registry entry: ${missing.join(', ')}`)
  const extra = Object.keys(adapterRegistry).filter((dex) => !SPEC_DEX_IDS.includes(dex))
  assert.deepEqual(extra, [])
})

test('the bindings DexId union is the spec list (so the registry type checks the same set)', () => {
  const source = readFileSync(new URL('../../bindings/types.ts', import.meta.url), 'utf8')
  const union = source.match(/export type DexId =([^]*?)\n\n/)?.[1] ?? ''
  const ids = [...union.matchAll(/'([A-Z0-9_]+)'/g)].map((m) => m[1])
  assert.deepEqual([...ids].sort(), [...SPEC_DEX_IDS].sort())
})

test('a present entry is the adapter of its own kind; an absent one says why', () => {
  for (const [dex, entry] of Object.entries(adapterRegistry)) {
    if (entry.status === 'present') assert.equal(entry.adapter.dex, dex)
    else assert.ok(entry.reason.length > 20, `${dex}: absent without a reason`)
  }
  const present = Object.entries(adapterRegistry)
    .filter(([, e]) => e.status === 'present')
    .map(([d]) => d)
  assert.deepEqual(present.sort(), [
    'AERODROME_CL',
    'AERODROME_V2LIKE',
    'ALIEN_BASE_V3',
    'CURVE',
    'DODO_V2',
    'ELFOMOFI',
    'FELTIR',
    'GYROSCOPE_ECLP',
    'HYDREX',
    'LUNARBASE',
    'MAVERICK_V2',
    'PANCAKE_INFINITY_CL',
    'PANCAKE_V2',
    'PANCAKE_V3',
    'PROPSWAP',
    'QUICKSWAP_V4',
    'TESSERA',
    'UNIV2',
    'UNIV3',
    'UNIV4',
    'WOOFI',
  ])
})
