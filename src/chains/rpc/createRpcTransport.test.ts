import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, type PublicClient } from 'viem'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { createRpcTransport } from './createRpcTransport.ts'
import { RpcCircuitOpenError } from './RpcCircuitOpenError.ts'

const devnet = useDevnet()
/** A node that accepts requests and never answers (a hung node). */
let hung: Server
let hungUrl: string
const DEAD = 'http://127.0.0.1:9' // nothing listens on the discard port here: connection refused

beforeAll(async () => {
  hung = createServer(() => {})
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve))
  hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`
})
afterAll(async () => {
  hung?.closeAllConnections()
  await new Promise((resolve) => hung?.close(resolve))
})

test('failover: a refused node and a hung node are skipped for the live one; their circuits open and they are not asked again until the cooldown', async () => {
  const errors: { url: string; kind: string }[] = []
  let t = 0
  const rpc = createRpcTransport({
    urls: [DEAD, hungUrl, devnet.anvil.url],
    timeoutMs: 300,
    failureThreshold: 2,
    cooldownMs: 10_000,
    onError: (e) => errors.push(e),
    now: () => t,
  })
  const client = createPublicClient({ transport: rpc.transport }) as PublicClient
  const expected = await devnet.publicClient.getBlockNumber()
  for (let i = 0; i < 4; i++) assert.equal(await client.getBlockNumber({ cacheTime: 0 }), expected)
  assert.deepEqual(
    rpc.nodes().map((n) => n.state),
    ['open', 'open', 'closed'],
  )
  const byNode = (url: string, kind: string) => errors.filter((e) => e.url === url && e.kind === kind).length
  assert.equal(byNode(DEAD, 'node'), 2, 'two refusals opened its circuit')
  assert.equal(byNode(hungUrl, 'node'), 2, 'two timeouts opened its circuit')
  assert.equal(byNode(DEAD, 'circuitOpen'), 2, 'then it was skipped without a call')
  t = 10_000
  assert.equal(await client.getBlockNumber({ cacheTime: 0 }), expected)
  assert.equal(byNode(DEAD, 'node'), 3, 'one trial after the cooldown')
  assert.equal(rpc.nodes()[0].state, 'open')
  assert.equal(rpc.nodes()[0].retryInMs, 20_000, 'a failed trial doubles the cooldown')
})

test('every node down: a call fails, and once the circuits are open it fails at once with RpcCircuitOpenError; a node back up is used again after its cooldown', async () => {
  let t = 0
  const rpc = createRpcTransport({ urls: [DEAD, hungUrl], timeoutMs: 200, failureThreshold: 1, cooldownMs: 1000, now: () => t })
  const client = createPublicClient({ transport: rpc.transport }) as PublicClient
  await assert.rejects(client.getBlockNumber({ cacheTime: 0 }))
  await assert.rejects(client.getBlockNumber({ cacheTime: 0 }), (error: Error) => {
    assert.ok(
      error instanceof RpcCircuitOpenError ||
        (error as { cause?: unknown }).cause instanceof RpcCircuitOpenError ||
        /circuit open/.test(error.message),
      error.message,
    )
    return true
  })
  // A JSON-RPC error answer is the node talking: it does not count against the circuit.
  const live = createRpcTransport({ urls: [devnet.anvil.url], failureThreshold: 1 })
  const liveClient = createPublicClient({ transport: live.transport }) as PublicClient
  await assert.rejects(
    liveClient.request({
      method: 'eth_call',
      params: [{ to: '0x0000000000000000000000000000000000000001', data: '0xzz' }, 'latest'],
    } as never),
  )
  assert.equal(live.nodes()[0].state, 'closed')
})
