import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes then renames, so a concurrent reader never sees half a file (the directory is created).
 *
 * @example
 * writeFileAtomically({ path: 'var/devnet.json', content: '{}\n' })
 * // var/devnet.json now holds '{}\n', replaced in one rename
 */
export function writeFileAtomically({ path, content }: { path: string; content: string | Uint8Array }): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, content)
  renameSync(tmp, path)
}
