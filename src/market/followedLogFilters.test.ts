import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import { followedLogFilters } from './followedLogFilters.ts'

test('filters name the deployments, the followed pools in groups, and V4 pool ids on their manager', () => {
  const adapters = presentAdapters()
  const pool = (i: number) => `0x${i.toString(16).padStart(40, '0')}` as Address
  const manager = '0x00000000000000000000000000000000000000aa' as Address
  const refs = [
    ...Array.from({ length: 5 }, (_, i) => ({ id: pool(i + 1), dex: 'UNIV2' as const, emitter: pool(i + 1) })),
    { id: pool(10), dex: 'UNIV3' as const, emitter: pool(10) },
    ...Array.from({ length: 3 }, (_, i) => ({ id: `0x${(i + 1).toString(16).padStart(64, '0')}`, dex: 'UNIV4' as const, emitter: manager })),
  ]
  const sources = [{ source: '0x00000000000000000000000000000000000000F1' as Address, dex: 'UNIV2' as const }, { source: manager, dex: 'UNIV4' as const }]
  const filters = followedLogFilters({ refs, adapters, sources, maxPerFilter: 4 })
  assert.deepEqual(filters[0].address, ['0x00000000000000000000000000000000000000f1', manager])
  assert.deepEqual(new Set(filters[0].topics), new Set([...(adapters.get('UNIV2')?.discoveryTopics ?? []), ...(adapters.get('UNIV4')?.discoveryTopics ?? [])]))
  assert.deepEqual(filters.slice(1, 3).map((f) => f.address.length), [4, 2], 'six pools in groups of four')
  assert.ok(filters[1].topics.includes(adapters.get('UNIV2')?.stateTopics[0] as `0x${string}`))
  assert.ok(filters[1].topics.includes(adapters.get('UNIV3')?.stateTopics[0] as `0x${string}`))
  assert.deepEqual(filters[3], { address: [manager], topics: [...(adapters.get('UNIV4')?.stateTopics ?? [])], topic1: refs.slice(6).map((r) => r.id) })
  assert.equal(filters.length, 4)
  assert.deepEqual(followedLogFilters({ refs: [], adapters, sources: [] }), [])
})
