import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, test } from 'vitest'
import { createPublicClient, http } from 'viem'
import { TokenProbeRefusedError } from '../errors.ts'
import { isTransportError } from '../isTransportError.ts'
import { probeTokenTransfer } from './probeTokenTransfer.ts'

// How the probe fails on nodes that cannot run it (the token cases are in createTokenScreen.test.ts,
// on anvil): a node that answers with an error (no state overrides) is not a dead node.

let node: Server
let url: string
beforeAll(async () => {
  node = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const { id } = JSON.parse(body)
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: 'invalid params: state override is not supported' } }))
    })
  })
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(node.address() as { port: number }).port}`
})
afterAll(() => new Promise((resolve) => node?.close(resolve)))

const args = {
  token: '0x00000000000000000000000000000000000000aa',
  holder: '0x00000000000000000000000000000000000000bb',
  blockNumber: 1n,
} as const

test('a node that answers the probe with an error (no state overrides): TokenProbeRefusedError, the token stays unjudged', async () => {
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) })
  await assert.rejects(
    probeTokenTransfer({ client, ...args }),
    (error) => error instanceof TokenProbeRefusedError && /state override is not supported/.test(error.message),
  )
})

test('a node that does not answer: the transport error as it is (the market step fails and is retried)', async () => {
  const client = createPublicClient({ transport: http('http://127.0.0.1:1', { retryCount: 0 }) })
  await assert.rejects(
    probeTokenTransfer({ client, ...args }),
    (error) => !(error instanceof TokenProbeRefusedError) && isTransportError(error),
  )
})
