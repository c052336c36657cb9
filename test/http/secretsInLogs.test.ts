import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterAll, beforeAll, test } from 'vitest'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { startSwapService } from '../../src/startSwapService.ts'
import { spawnedServerGatewayDatabase } from '../fixtures/spawnServer.ts'

// No secret reaches a log line (issue 12, item 11). The service runs against an RPC URL shaped
// like a hosted provider's (a key in the path, another in the query, user and password), served
// by this test's own JSON-RPC stand-in, which first answers, then fails with a body that echoes
// the key (as providers do), then drops connections. Every pino line (the market's included),
// every console line, every response body and the market's lastError are captured: none holds a
// secret, and the log still says which host failed and how. `src/server.ts` is run too, for what
// it prints itself: the banner, a failed start and a configuration error.

const PATH_KEY = 'Zx9kQ2mP7rT4vW8yB3nL6hJ1aa'
const QUERY_KEY = 'q8Fh2Lk9Rt5Wz3Xc7Vb1Nm4'
const PASSWORD = 'pa55-w0rd-secret'
const API_KEY = 'api-key-7d1e0c9b5a3f2e8d'
const SIGNING_KEY = 'signing-key-4c2b9e7f1a'
const SECRETS = [PATH_KEY, QUERY_KEY, PASSWORD, API_KEY, SIGNING_KEY, Buffer.from(`ops:${PASSWORD}`).toString('base64')]
const ROUTER = '0x00000000000000000000000000000000000000c1'

type Mode = 'answer' | 'fail' | 'drop'
let mode: Mode = 'answer'
let rpc: Server
let rpcHost: string
let block = 100

/** A JSON-RPC node with no pools: enough for the market's cold start and polling, and the gas price. */
function answer(method: string): unknown {
  if (method === 'eth_blockNumber') return `0x${(block++).toString(16)}`
  if (method === 'eth_gasPrice') return '0x3b9aca00'
  if (method === 'eth_chainId') return '0x2105'
  if (method === 'eth_getLogs') return []
  if (method === 'eth_getBlockByNumber') {
    return {
      number: `0x${block.toString(16)}`,
      hash: `0x${'ab'.repeat(32)}`,
      parentHash: `0x${'cd'.repeat(32)}`,
      timestamp: '0x65000000',
      gasLimit: '0x1c9c380',
      gasUsed: '0x0',
      baseFeePerGas: '0x1',
      transactions: [],
      uncles: [],
    }
  }
  return null
}

const rpcUrl = () => `http://ops:${PASSWORD}@${rpcHost}/v2/${PATH_KEY}?apikey=${QUERY_KEY}`

beforeAll(async () => {
  rpc = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      if (mode === 'drop') return req.socket.destroy()
      if (mode === 'fail') {
        // Providers echo the key they refuse; the body reaches viem's error details.
        res.writeHead(429, { 'content-type': 'application/json' })
        return res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            error: { code: -32005, message: `key ${PATH_KEY} over quota (${req.url}, ${req.headers.authorization})` },
          }),
        )
      }
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: answer(method) }))
    })
  })
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve))
  rpcHost = `127.0.0.1:${(rpc.address() as AddressInfo).port}`
})
afterAll(async () => {
  rpc.closeAllConnections()
  await new Promise((resolve) => rpc.close(resolve))
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 2400; i++) {
    if (await condition()) return
    await sleep(25)
  }
  assert.fail(`timed out waiting for ${what}`)
}

function assertNoSecret(text: string, where: string) {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} carries a secret (${secret}):\n${text}`)
}

test(
  'the running service: every log line, response body and lastError is free of secrets, and still names the host',
  { timeout: 120_000 },
  async () => {
    const config = loadConfig({
      RPC_URL: rpcUrl(),
      ROUTER_ADDRESS: ROUTER,
      API_KEYS: API_KEY,
      QUOTE_SIGNING_KEY: SIGNING_KEY,
      MARKET_POLL_INTERVAL_MS: '20',
      MAX_SNAPSHOT_AGE_MS: '10000',
      LOG_LEVEL: 'trace',
    })
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk))
        callback()
      },
    })
    const consoleLines: string[] = []
    const originals = { log: console.log, error: console.error, warn: console.warn, info: console.info }
    for (const name of Object.keys(originals) as (keyof typeof originals)[])
      console[name] = (...args: unknown[]) => void consoleLines.push(args.map(String).join(' '))
    const bodies: string[] = []
    const service = await startSwapService({ config, logger: { level: 'trace', stream } })
    try {
      const call = async (url: string, body?: unknown, method = 'POST') => {
        const res = await service.fastify.inject({
          method: method as 'POST',
          url,
          headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
          payload: body === undefined ? undefined : JSON.stringify(body),
        })
        bodies.push(res.body)
        return res
      }
      const quote = {
        chainId: 8453,
        tokenIn: '0x4200000000000000000000000000000000000006',
        tokenOut: '0x833589fCD6eDb6E08f4c3C32D4f71b54bdA02913',
        amountIn: '1000000000000000000',
        slippageBps: 50,
      }
      // Healthy: a key in the query string is logged with the request URL.
      assert.equal((await call(`/openapi.json?api_key=${API_KEY}`, undefined, 'GET')).statusCode, 200)
      assert.equal((await call('/quote', { ...quote, feeBps: 9_000 })).statusCode, 400)

      // The node refuses, echoing the key: the market's refresh fails (a quote reads nothing from the
      // node: docs/real-chain.md, "RPC faults"), and its error is redacted where it is kept and logged.
      mode = 'fail'
      await until(() => /Status: 429/.test(service.market.freshness().lastError ?? ''), "a refresh failure with the node's status")
      const refused = service.market.freshness().lastError!
      // Then it drops connections, until the snapshot is stale.
      mode = 'drop'
      await until(() => service.market.freshness().stale, 'a stale market')
      for (const url of ['/quote', '/execute']) {
        const res = await call(url, url === '/quote' ? quote : { ...quote, user: '0x000000000000000000000000000000000000bEEF' })
        assert.equal(res.statusCode, 503, res.body)
      }
      const dropped = service.market.freshness().lastError!

      const log = lines.join('')
      for (const [text, where] of [
        [log, 'the log'],
        [consoleLines.join('\n'), 'the console'],
        [bodies.join('\n'), 'a response body'],
        [refused, 'lastError'],
        [dropped, 'lastError'],
      ] as const)
        assertNoSecret(text, where)
      // Still useful: which node, what it answered, which paths failed.
      assert.match(refused, new RegExp(`Status: 429; URL: http://${rpcHost}/\\[redacted\\]; Details: key \\[redacted\\] over quota`))
      assert.match(log, /market: refresh failed/)
      assert.match(log, /quote refused: market stale/)
      assert.ok(log.includes(`http://${rpcHost}/[redacted]`), 'the host stays in the log')
      assert.match(log, /\/openapi\.json\?api_key=\[redacted\]/)
      assert.ok(lines.length > 10)
    } finally {
      Object.assign(console, originals)
      mode = 'answer'
      await service.fastify.close()
    }
  },
)

/** Runs `src/server.ts` (as `npm start` does, without the build) until it exits or `stopWhen` matches its output. */
async function runServer(env: Record<string, string>, stopWhen?: RegExp): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', API_KEYS_FILE: '', GATEWAY_DATABASE_URL: spawnedServerGatewayDatabase(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const onData = (d: Buffer) => {
    output += d
    if (stopWhen?.test(output)) child.kill('SIGTERM')
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, output }
}

test('server.ts: the banner, a failed start and a configuration error print no secret', { timeout: 180_000 }, async () => {
  const env = { RPC_URL: rpcUrl(), ROUTER_ADDRESS: ROUTER, API_KEYS: API_KEY, QUOTE_SIGNING_KEY: SIGNING_KEY }
  mode = 'answer'
  const started = await runServer(env, /integrator fees|listening on[^\n]*\n[^\n]*chain: [^\n]*\n/)
  assertNoSecret(started.output, 'the banner')
  assert.match(started.output, new RegExp(`chain: http://${rpcHost}/\\[redacted\\]`))

  mode = 'fail'
  const failed = await runServer(env)
  assert.equal(failed.code, 1, failed.output)
  assertNoSecret(failed.output, 'a failed start')
  assert.match(failed.output, /swap service failed to start/)
  assert.ok(failed.output.includes(`http://${rpcHost}/[redacted]`), failed.output)

  mode = 'answer'
  const misconfigured = await runServer({
    ...env,
    RPC_URL: `htps://${rpcHost}/v2/${PATH_KEY}`,
    QUOTE_SIGNING_KEY: PASSWORD.slice(0, 12),
    API_KEYS: `${API_KEY},short-secret`,
  })
  assert.equal(misconfigured.code, 1)
  assertNoSecret(misconfigured.output, 'a configuration error')
  assert.ok(!misconfigured.output.includes('short-secret'))
  assert.match(
    misconfigured.output,
    new RegExp(`RPC_URL: .*htps://${rpcHost}/\\[redacted\\].*\\n\\s+QUOTE_SIGNING_KEY: .*\\n\\s+API_KEYS entry 2: `),
  )
})
