import assert from 'node:assert/strict'
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
