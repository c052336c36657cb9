import assert from 'node:assert/strict'
import { test } from 'vitest'
import { tickLensAbi, tickLensRuntimeCode } from './tickLensArtifact.ts'
import { compiledTickLens } from './compiledTickLens.ts'

test('tickLensArtifact.ts equals the compiled lens (regenerate: node --import tsx src/adapters/state/writeTickLensArtifact.ts)', () => {
  const compiled = compiledTickLens()
  assert.deepEqual(JSON.parse(JSON.stringify(tickLensAbi)), compiled.abi)
  assert.equal(tickLensRuntimeCode, compiled.deployedBytecode)
})
