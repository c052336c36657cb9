import assert from 'node:assert/strict'
import { test } from 'vitest'
import { compiledLensContract } from '../../artifacts/compiledLensContract.ts'
import { tokenTransferProbeAbi, tokenTransferProbeRuntimeCode } from './tokenTransferProbeArtifact.ts'

test('tokenTransferProbeArtifact.ts equals the compiled probe (regenerate: node --import tsx src/market/tokens/writeTokenTransferProbeArtifact.ts)', () => {
  const compiled = compiledLensContract({ name: 'TokenTransferProbe' })
  assert.deepEqual(JSON.parse(JSON.stringify(tokenTransferProbeAbi)), compiled.abi)
  assert.equal(tokenTransferProbeRuntimeCode, compiled.deployedBytecode)
})
