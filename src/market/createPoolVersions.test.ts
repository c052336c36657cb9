import assert from 'node:assert/strict'
import { test } from 'vitest'
import type { PoolSnapshot } from '../adapters/PoolAdapter.ts'
import { createPoolVersions } from './createPoolVersions.ts'

const snapshot = (reserve: string): PoolSnapshot => ({
  ref: { id: '0xpool', dex: 'UNIV2', emitter: '0x0000000000000000000000000000000000000001' },
  input: {
    id: '0xpool',
    dex: 'UNIV2',
    tokens: ['0x0000000000000000000000000000000000000002', '0x0000000000000000000000000000000000000003'],
    state: { model: 'constantProduct', reserves: [reserve, reserve], feePips: 3000 } as never,
  },
  refreshEveryBlock: false,
})

test('a block is priced on the latest version read at or before it; a removal is a version too', () => {
  const versions = createPoolVersions({ keepPerPool: 16 })
  versions.record('0xpool', 10n, snapshot('1'))
  versions.record('0xpool', 14n, snapshot('2'))
  versions.record('0xpool', 20n, undefined)
  assert.equal(versions.at('0xpool', 9n), undefined)
  assert.equal(versions.at('0xpool', 10n)?.readAtBlock, 10n)
  assert.deepEqual(versions.at('0xpool', 13n)?.snapshot?.input.state, snapshot('1').input.state)
  assert.deepEqual(versions.at('0xpool', 19n)?.snapshot?.input.state, snapshot('2').input.state)
  assert.deepEqual(versions.at('0xpool', 25n), { readAtBlock: 20n, snapshot: undefined })
  assert.equal(versions.at('0xother', 25n), undefined)
})

test('only the newest versions are kept, and a reorg drops the versions of the blocks it dropped', () => {
  const versions = createPoolVersions({ keepPerPool: 3 })
  for (let block = 1n; block <= 5n; block++) versions.record('0xpool', block, snapshot(String(block)))
  assert.equal(versions.at('0xpool', 2n), undefined, 'blocks 1 and 2 were let go')
  assert.equal(versions.at('0xpool', 3n)?.readAtBlock, 3n)
  versions.dropAfter(3n)
  assert.equal(versions.at('0xpool', 5n)?.readAtBlock, 3n)
  // The new branch's read of block 4 replaces nothing older and is found again.
  versions.record('0xpool', 4n, snapshot('4b'))
  assert.deepEqual(versions.at('0xpool', 9n)?.snapshot?.input.state, snapshot('4b').input.state)
  // A second read of the same block (a rebuild at the head it already had) replaces the first.
  versions.record('0xpool', 4n, snapshot('4c'))
  assert.deepEqual(versions.at('0xpool', 4n)?.snapshot?.input.state, snapshot('4c').input.state)
  versions.dropAfter(0n)
  assert.equal(versions.at('0xpool', 9n), undefined)
})
