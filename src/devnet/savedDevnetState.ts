import { existsSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { type Hex, hexToBytes } from 'viem'
import type { Devnet } from './startDevnet.ts'
import { writeFileAtomically } from './writeFileAtomically.ts'

/** A seeded chain's state saved for the next start: anvil's dump, and a meta file with its key and description. */
export type SavedDevnetState<Description> = {
  statePath: string
  /** The saved key and description when both files exist and the key matches; else undefined (seed again). */
  load: (key: string) => Description | undefined
  /** Dumps the chain (`anvil_dumpState`) and writes it with its key and description. */
  save: (args: { devnet: Devnet; key: string; description: Description }) => Promise<void>
}

/**
 * The state files of one seeded chain (`<dir>/<name>-state.json` and `<name>-state.meta.json`), as
 * `startSeededDevnet` and the embedded launchpad chains keep them: anvil loads the state with
 * `--load-state` in about a second, instead of seeding again.
 *
 * @example
 * const saved = savedDevnetState<LaunchpadChainDescription>({ dir: 'var', name: 'devnet-4663' })
 * const description = saved.load(key) // undefined: seed, then await saved.save({ devnet, key, description })
 */
export function savedDevnetState<Description>({ dir, name }: { dir: string; name: string }): SavedDevnetState<Description> {
  const statePath = `${dir}/${name}-state.json`
  const metaPath = `${dir}/${name}-state.meta.json`
  return {
    statePath,
    load: (key) => {
      if (!existsSync(statePath) || !existsSync(metaPath)) return undefined
      try {
        const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { key: string; description: Description }
        return meta.key === key ? meta.description : undefined
      } catch {
        return undefined
      }
    },
    save: async ({ devnet, key, description }) => {
      // Fetched directly: the dump (blocks and transactions of the launchpad's simulated week
      // included) is larger than viem's 10 MB response limit.
      const response = await fetch(devnet.anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
      })
      const bytes = hexToBytes(((await response.json()) as { result: Hex }).result)
      // anvil answers a gzipped JSON state; `--load-state` reads the plain JSON.
      writeFileAtomically({ path: statePath, content: bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes })
      writeFileAtomically({ path: metaPath, content: JSON.stringify({ key, description }) })
    },
  }
}
