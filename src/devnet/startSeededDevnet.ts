import { join } from 'node:path'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import type { LaunchpadDescription } from './launchpad/LaunchpadDescription.ts'
import { seedLaunchpad } from './launchpad/seedLaunchpad.ts'
import type { DevnetDescription } from './seed/DevnetDescription.ts'
import { savedDevnetState } from './savedDevnetState.ts'
import { seedBaseMarket } from './seed/seedBaseMarket.ts'
import { seedStateKey } from './seed/seedStateKey.ts'
import { type Devnet, startDevnet } from './startDevnet.ts'
import { writeFileAtomically } from './writeFileAtomically.ts'

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
  const saved = savedDevnetState<SeededDevnet['market']>({ dir: stateDir, name: 'devnet' })
  const loaded = forceSeed ? undefined : saved.load(key)

  let devnet: Devnet | undefined
  let market: SeededDevnet['market']
  let source: SeededDevnet['source']
  if (loaded) {
    devnet = await startDevnet({ loadStatePath: saved.statePath })
    market = { ...loaded, rpcUrl: devnet.anvil.url }
    source = 'dump'
  } else {
    devnet = await startDevnet({})
    try {
      ;({ description: market } = await seedBaseMarket({ devnet, seed, stateKey: key }))
      market = { ...market, launchpad: await seedLaunchpad({ devnet, market, seed }) }
      await saved.save({ devnet, key, description: market })
    } catch (error) {
      await devnet.stop()
      throw error
    }
    source = 'seed'
  }
  if (descriptionPath) writeFileAtomically({ path: descriptionPath, content: `${JSON.stringify(market, null, 2)}\n` })
  return { ...devnet, market, source, startMs: Date.now() - started }
}
