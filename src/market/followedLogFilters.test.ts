import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { Address } from 'viem'
import { presentAdapters } from '../adapters/presentAdapters.ts'
import { followedLogFilters } from './followedLogFilters.ts'

test('filters name the deployments, every log of the followed pools in groups, and V4 pool ids on their manager', () => {
  const adapters = presentAdapters()
  const pool = (i: number) => `0x${i.toString(16).padStart(40, '0')}` as Address
  const manager = '0x00000000000000000000000000000000000000aa' as Address
  const refs = [
    ...Array.from({ length: 5 }, (_, i) => ({ id: pool(i + 1), dex: 'UNIV2' as const, emitter: pool(i + 1) })),
    { id: pool(10), dex: 'UNIV3' as const, emitter: pool(10) },
    ...Array.from({ length: 3 }, (_, i) => ({
      id: `0x${(i + 1).toString(16).padStart(64, '0')}`,
      dex: 'UNIV4' as const,
      emitter: manager,
    })),
  ]
  const sources = [
    { source: '0x00000000000000000000000000000000000000F1' as Address, dex: 'UNIV2' as const },
    { source: manager, dex: 'UNIV4' as const },
  ]
  const filters = followedLogFilters({ refs, adapters, sources, maxPerFilter: 4 })
  assert.deepEqual(filters[0].address, ['0x00000000000000000000000000000000000000f1', manager])
  assert.deepEqual(
    new Set(filters[0].topics),
    new Set([...(adapters.get('UNIV2')?.discoveryTopics ?? []), ...(adapters.get('UNIV4')?.discoveryTopics ?? [])]),
  )
  assert.deepEqual(
    filters.slice(1, 3).map((f) => f.address.length),
    [4, 2],
    'six pools in groups of four',
  )
  // Any event of a followed pool: an event signature we do not know (Algebra's 9-field Swap) still reaches us.
  assert.deepEqual(
    filters.slice(1, 3).map((f) => f.topics),
    [undefined, undefined],
  )
  // A singleton manager's logs are every pool's: only those about a followed pool id (topic1), whatever the event.
  assert.deepEqual(filters[3], { address: [manager], topic1: refs.slice(6).map((r) => r.id) })
  assert.equal(filters.length, 4)
  assert.deepEqual(followedLogFilters({ refs: [], adapters, sources: [] }), [])
})
