import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'

/**
 * Runs one of the checkout's idempotent install scripts (`scripts/install-vyper.sh`,
 * `scripts/install-balancer-v2.sh`) in a child process, its stderr passed through, and resolves
 * when it exits 0. Never synchronous: on a fresh machine an install takes minutes, and the embedded
 * chains seeding beside it in this process would see their in-flight RPC calls time out the moment
 * a blocked event loop resumed (timers run before the answers are read).
 *
 * @example
 * await runInstallScript({ script: 'install-vyper.sh' })
 * // → resolves at once when installed; rejects naming the script and its exit code otherwise
 */
export async function runInstallScript({ script }: { script: string }): Promise<void> {
  const { root } = compiledContractsPath()
  const child = spawn('bash', [join(root, 'scripts', script)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (exitCode) => resolve(exitCode))
  })
  if (code !== 0) throw new Error(`scripts/${script} failed (exit ${code})`)
}
