import assert from 'node:assert/strict'
import { test } from 'vitest'
import { loadCurveStableSwapNgArtifact } from './loadCurveStableSwapNgArtifact.ts'
import { runInstallScript } from './runInstallScript.ts'

test('loading a Vyper artifact (install check, compiler version, compile) leaves the event loop free', async () => {
  // Chains seeding in this process need their RPC answers read meanwhile: with a synchronous child
  // process not one turn of the loop would run until the load returned.
  let turns = 0
  const ticker = setInterval(() => turns++, 1)
  try {
    const { bytecode } = await loadCurveStableSwapNgArtifact()
    assert.match(bytecode, /^0x[0-9a-f]{1000,}$/)
  } finally {
    clearInterval(ticker)
  }
  assert.ok(turns > 0, 'no timer ran while the artifact loaded')
})

test('an install script that fails rejects, naming the script and its exit code', async () => {
  await assert.rejects(runInstallScript({ script: 'no-such-install.sh' }), /scripts\/no-such-install\.sh failed \(exit 127\)/)
})
