/**
 * The back-to-back soak (bench/README.md, "Back-to-back soak"): N random trades sent one after
 * another to a running service with its own poller, each executed in the block after its plan's;
 * counts exact / different / reverted and, for every trade that differs, prints each pool of its
 * plan as the solver priced it beside the chain's state at the plan's block.
 *
 *   npm run soak -- [--trades 1000] [--seed 1] [--url http://127.0.0.1:8080 --key <key>] [--devnet var/devnet.json] [--out bench/results/soak.json]
 *
 * With `--url`, the service at that URL (an `npm start` on the embedded chain; `--devnet` is the
 * description it wrote); without, a service is started here on the embedded chain with its
 * defaults, listening on a free port. Exits 1 when any trade differs, reverts, or its eth_call
 * before sending answered other than the plan.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/loadConfig.ts'
import type { DevnetDescription } from '../src/devnet/seed/DevnetDescription.ts'
import { startSwapService } from '../src/startSwapService.ts'
import { runBackToBackSoak } from './soak/runBackToBackSoak.ts'

const { values } = parseArgs({
  options: {
    trades: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string' },
    key: { type: 'string' },
    devnet: { type: 'string', default: 'var/devnet.json' },
    out: { type: 'string', default: 'bench/results/soak.json' },
    quiet: { type: 'boolean', default: false },
  },
})

const trades = Number(values.trades)
const seed = Number(values.seed)
if (!Number.isInteger(trades) || trades < 1 || !Number.isInteger(seed)) throw new Error('--trades and --seed take integers (trades ≥ 1)')
const KEY = 'soak-key-0123456789abcdef0123'

let url = values.url
let apiKey = values.key
let devnet: DevnetDescription
let close = async () => {}
if (url) {
  if (!apiKey) throw new Error('--url needs --key (the key the service printed)')
  devnet = JSON.parse(readFileSync(values.devnet, 'utf8')) as DevnetDescription
} else {
  const config = loadConfig({
    ...process.env,
    API_KEYS: KEY,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
    PORT: '0',
    GATEWAY_PORT: '0',
  })
  const service = await startSwapService({ config, logger: false })
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  if (!address || typeof address !== 'object' || !service.devnet) throw new Error('the soak runs on the embedded chain')
  url = `http://127.0.0.1:${address.port}`
  apiKey = KEY
  devnet = service.devnet.market
  close = () => service.fastify.close()
}

const started = performance.now()
const { counts, differences } = await runBackToBackSoak({
  url,
  apiKey,
  devnet,
  trades,
  seed,
  log: values.quiet ? undefined : (line) => console.log(line),
})
const seconds = (performance.now() - started) / 1000
await close()

const traded = counts.exact + counts.different + counts.reverted
console.log(
  `\nback-to-back soak, seed ${seed}: ${traded} trades executed (${counts.noRoute} draws found no route): exact ${counts.exact}, different ${counts.different}, reverted ${counts.reverted}; ${seconds.toFixed(0)} s`,
)
console.log(JSON.stringify(counts))
for (const difference of differences) console.log(difference)
writeFileSync(
  values.out,
  `${JSON.stringify({ date: new Date().toISOString(), cpu: cpus()[0]?.model, seed, trades, seconds, counts, differences }, null, 2)}\n`,
)
process.exit(counts.different + counts.reverted + counts.simulationDiffers === 0 ? 0 : 1)
