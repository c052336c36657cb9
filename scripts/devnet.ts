/**
 * Runs the seeded Base-like devnet on its own until Ctrl-C:
 *
 *   node --import tsx scripts/devnet.ts [--reseed] [--seed <n>]
 *
 * Loads the saved state from `var/` when it is current (about a second), seeds it otherwise, writes
 * `var/devnet.json` (RPC URL, tokens, pools, factories, funded accounts) and prints the RPC URL.
 * anvil is SIGTERMed by PID on Ctrl-C, SIGTERM, SIGHUP, an error or a normal exit
 * (`stopChildrenOnExit`), so no orphan is left behind.
 */
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { compiledContractsPath } from '../src/artifacts/compiledContractsPath.ts'
import { startSeededDevnet } from '../src/devnet/startSeededDevnet.ts'

const { values } = parseArgs({ options: { reseed: { type: 'boolean', default: false }, seed: { type: 'string', default: '8453' } } })
const seed = Number(values.seed)
if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${values.seed}`)
const descriptionPath = join(compiledContractsPath().root, 'var', 'devnet.json')

const devnet = await startSeededDevnet({ seed, forceSeed: values.reseed, descriptionPath })
const { market } = devnet
const kinds = new Map<string, number>()
for (const pool of market.pools) kinds.set(pool.dex, (kinds.get(pool.dex) ?? 0) + 1)
console.log(
  `devnet ${devnet.source === 'dump' ? 'loaded from the saved state' : 'seeded from scratch'} in ${devnet.startMs} ms (anvil pid ${devnet.anvil.pid})`,
)
console.log(
  `${market.pools.length} pools: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; ${Object.keys(market.tokens).length} tokens; router ${market.router ?? 'not deployed (null)'}`,
)
console.log(`description: ${descriptionPath}`)
console.log(market.rpcUrl)
console.log('Ctrl-C to stop.')

// The exit handlers of stopChildrenOnExit SIGTERM anvil and exit; this one only says so first.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.prependListener(signal, () => console.log(`\n${signal}: stopping anvil (pid ${devnet.anvil.pid})`))
}
// Keep the process alive (anvil's piped output alone is not something to rely on).
setInterval(() => {}, 1 << 30)
