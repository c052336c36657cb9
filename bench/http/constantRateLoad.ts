// An open-loop, constant-rate HTTP load generator (the fixed-rate runs of bench/http.bench.ts).
//
// autocannon's `-R` is not a constant rate: each connection may send its share of the second's
// requests as fast as it can, and the quota refills once a second, so a "200 req/s" run is a
// burst of 200 at the top of every second and measures queueing in the burst. Here request i is
// due at start + i / rate whatever happened to earlier ones (open loop), and its latency is taken
// from when it was due, not from when a free socket sent it, so a slow server cannot hide its
// delay by slowing the generator (no coordinated omission).
//
//   node --import tsx bench/http/constantRateLoad.ts --url http://127.0.0.1:8080/quote --rate 200 \
//     --duration 10 --sockets 16 --header x-api-key=KEY --body '{"chainId":8453,...}'
//   (--method GET and a query in --url for the gateway's read routes: bench/gateway.bench.ts)
//
// Several --url (instances behind a round-robin balancer): request i goes to url i mod n, each with
// its own keep-alive pool of --sockets.
//
// Prints one JSON object: p50_ms, p99_ms, max_ms, rps (answered per second), sent, errors, non2xx.
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    url: { type: 'string', multiple: true, default: [] },
    rate: { type: 'string' },
    duration: { type: 'string', default: '10' },
    sockets: { type: 'string', default: '16' },
    header: { type: 'string', multiple: true, default: [] },
    body: { type: 'string', default: '' },
    method: { type: 'string', default: 'POST' },
  },
})
if (values.url.length === 0 || !values.rate) throw new Error('--url and --rate are required')
const urls = values.url.map((u) => new URL(u))
const rate = Number(values.rate)
const durationMs = Number(values.duration) * 1000
const body = Buffer.from(values.body)
const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': body.length }
for (const header of values.header) {
  const at = header.indexOf('=')
  headers[header.slice(0, at)] = header.slice(at + 1)
}
const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: Number(values.sockets) }))

const latencies: number[] = []
let sent = 0
let errors = 0
let non2xx = 0
let answered = 0

function send(dueAt: number): Promise<void> {
  const target = sent % urls.length
  const url = urls[target]
  sent += 1
  return new Promise((resolve) => {
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: values.method, headers, agent: agents[target] },
      (res) => {
        res.resume()
        res.on('end', () => {
          latencies.push(performance.now() - dueAt)
          answered += 1
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx += 1
          resolve()
        })
      },
    )
    req.on('error', () => {
      errors += 1
      resolve()
    })
    req.end(body)
  })
}

const start = performance.now()
const pending: Promise<void>[] = []
const total = Math.floor((rate * durationMs) / 1000)
await new Promise<void>((done) => {
  let next = 0
  const tick = () => {
    const now = performance.now()
    // Send every request that is due (a late timer sends the backlog at once, each timed from
    // its own due time), then sleep until the next one is due.
    while (next < total && start + (next * 1000) / rate <= now) {
      pending.push(send(start + (next * 1000) / rate))
      next += 1
    }
    if (next >= total) return done()
    setTimeout(tick, Math.max(0, start + (next * 1000) / rate - performance.now()))
  }
  tick()
})
await Promise.all(pending)
const elapsedSec = (performance.now() - start) / 1000
for (const agent of agents) agent.destroy()

latencies.sort((a, b) => a - b)
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN
const round = (x: number) => Math.round(x * 100) / 100
console.log(
  JSON.stringify({
    p50_ms: round(at(0.5)),
    p99_ms: round(at(0.99)),
    max_ms: round(latencies.at(-1) ?? Number.NaN),
    rps: round(answered / elapsedSec),
    sent,
    errors,
    non2xx,
  }),
)
