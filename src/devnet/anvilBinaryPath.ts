import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Path of the anvil binary shipped by `@foundry-rs/anvil-linux-amd64` (no install script needed).
 *
 * @example
 * spawn(anvilBinaryPath(), ['--version'])
 * // anvilBinaryPath() → '<root>/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil'
 */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil')
}
