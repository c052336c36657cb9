import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { startAnvil } from './startAnvil.ts'

test('startAnvil: listens on loopback, answers, and stops by PID', async () => {
  const anvil = await startAnvil({})
  assert.match(anvil.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const res = await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  })
  assert.equal(((await res.json()) as { result: string }).result, '0x2105')
  await anvil.stop()
  assert.throws(() => process.kill(anvil.pid, 0))
  await anvil.stop()
})

test('startAnvil: the block states anvil moves to disk live in a directory of their own, removed on stop', async () => {
  const anvil = await startAnvil({})
  const argv = readFileSync(`/proc/${anvil.pid}/cmdline`, 'utf8').split('\0')
  const cachePath = argv[argv.indexOf('--cache-path') + 1]!
  assert.ok(cachePath.startsWith(tmpdir()), cachePath)
  // Past anvil's in-memory window: older states are written under the cache path.
  await fetch(anvil.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x200'] }),
  })
  const [stateDir] = readdirSync(cachePath)
  assert.ok(stateDir !== undefined && readdirSync(join(cachePath, stateDir)).length > 0)
  await anvil.stop()
  assert.equal(existsSync(cachePath), false)
})
