import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { type Hex, hexToBytes } from 'viem'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { LaunchpadDescription } from './launchpad/LaunchpadDescription.ts'
import { seedLaunchpad } from './launchpad/seedLaunchpad.ts'
import type { DevnetDescription } from './seed/DevnetDescription.ts'
import { seedBaseMarket } from './seed/seedBaseMarket.ts'
import { seedStateKey } from './seed/seedStateKey.ts'
import { type Devnet, startDevnet } from './startDevnet.ts'

export type StartSeededDevnetParameters = {
  /** Market seed; default 8453. */
  seed?: number
  /** Where the state dump and its key live; default `<repo>/var`. */
  stateDir?: string
  /** Seed from scratch even when a current dump exists (the dump is then rewritten). */
  forceSeed?: boolean
  /** Also write the description (with this chain's RPC URL) here, e.g. `var/devnet.json`. */
  descriptionPath?: string
}

export type SeededDevnet = Devnet & {
  /** The market, and the launchpad seeded on it (`src/devnet/launchpad/`). */
  market: DevnetDescription & { launchpad?: LaunchpadDescription }
  /** `dump`: loaded from the saved state; `seed`: seeded from scratch (and saved). */
  source: 'dump' | 'seed'
  /** Wall time of the start, load or seed included. */
  startMs: number
}

/**
 * Starts anvil with the seeded Base-like market: loads `var/devnet-state.json` when its key (seed,
 * packages, contracts, `src/devnet` sources) is current, otherwise seeds from scratch and saves the
 * state with `anvil_dumpState` for the next start. The chain is stopped on every exit path.
 *
 * @example
 * const devnet = await startSeededDevnet({ descriptionPath: 'var/devnet.json' })
 * try {
 *   console.log(devnet.market.rpcUrl, devnet.market.pools.length)
 * // prints http://127.0.0.1:<port> and the seeded pools' count; loaded in seconds when var/devnet-state.json is current
 * } finally {
 *   await devnet.stop()
 * }
 */
export async function startSeededDevnet({
  seed = 8453,
  stateDir = join(compiledContractsPath().root, 'var'),
  forceSeed = false,
  descriptionPath,
}: StartSeededDevnetParameters = {}): Promise<SeededDevnet> {
  const started = Date.now()
  const { key } = seedStateKey({ seed })
  const statePath = join(stateDir, 'devnet-state.json')
  const metaPath = join(stateDir, 'devnet-state.meta.json')
  const saved = !forceSeed && existsSync(statePath) && existsSync(metaPath) ? readMeta(metaPath) : undefined

  let devnet: Devnet | undefined
  let market: SeededDevnet['market']
  let source: SeededDevnet['source']
  if (saved?.key === key) {
    devnet = await startDevnet({ loadStatePath: statePath })
    market = { ...saved.description, rpcUrl: devnet.anvil.url }
    source = 'dump'
  } else {
    devnet = await startDevnet({})
    try {
      ;({ description: market } = await seedBaseMarket({ devnet, seed, stateKey: key }))
      market = { ...market, launchpad: await seedLaunchpad({ devnet, market, seed }) }
      // Fetched directly: the dump (blocks and transactions of the launchpad's simulated week
      // included) is larger than viem's 10 MB response limit.
      const response = await fetch(devnet.anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
      })
      const dump = ((await response.json()) as { result: Hex }).result
      const bytes = hexToBytes(dump)
      // anvil answers a gzipped JSON state; `--load-state` reads the plain JSON.
      const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes
      writeAtomically({ path: statePath, content: json })
      writeAtomically({ path: metaPath, content: JSON.stringify({ key, description: market }) })
    } catch (error) {
      await devnet.stop()
      throw error
    }
    source = 'seed'
  }
  if (descriptionPath) writeAtomically({ path: descriptionPath, content: `${JSON.stringify(market, null, 2)}\n` })
  return { ...devnet, market, source, startMs: Date.now() - started }
}

function readMeta(path: string): { key: string; description: DevnetDescription } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

/** Write then rename, so a concurrent reader never sees half a file. */
function writeAtomically({ path, content }: { path: string; content: string | Uint8Array }): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, content)
  renameSync(tmp, path)
}
