import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anvilBinaryPath } from './anvilBinaryPath.ts'
import { stopChildrenOnExit } from './stopChildrenOnExit.ts'

export type StartAnvilParameters = {
  /** Chain id; default 8453 (Base). */
  chainId?: number
  /** Block gas limit; default 1e9 (a full block makes anvil drop a sender's later transactions). */
  gasLimit?: bigint
  /** A `--dump-state` / `anvil_dumpState` file to start from. */
  loadStatePath?: string
  /** Extra CLI arguments. */
  args?: string[]
  /** How long to wait for `Listening on` and a healthy RPC; default 15 s. */
  timeoutMs?: number
}

export type Anvil = {
  /** `http://127.0.0.1:<port>` */
  url: string
  port: number
  pid: number
  /** SIGTERMs the process by PID and waits for it to exit (SIGKILL after 3 s). Idempotent. */
  stop: () => Promise<void>
}

/**
 * Starts anvil on 127.0.0.1 with an OS-chosen port, keeps draining its output, waits until the RPC
 * answers `eth_chainId`, and guarantees the process is stopped on every exit path of this process:
 * exit handlers for exit, uncaught errors and signals; on Linux also the kernel's parent-death
 * signal, for SIGKILL. anvil does not keep this process alive by itself.
 *
 * @example
 * const anvil = await startAnvil({})
 * try { console.log(anvil.url) } finally { await anvil.stop() } // prints http://127.0.0.1:<free port>: a chain with id 8453
 */
export async function startAnvil({
  chainId = 8453,
  gasLimit = 1_000_000_000n,
  loadStatePath,
  args = [],
  timeoutMs = 15_000,
}: StartAnvilParameters): Promise<Anvil> {
  // anvil moves older block states to disk under a cache directory and never deletes it, not even
  // on SIGTERM (~/.foundry/anvil/tmp by default: hundreds of MB per test chain). Each chain gets a
  // directory of its own, removed when the chain stops or this process exits.
  const cachePath = mkdtempSync(join(tmpdir(), 'anvil-states-'))
  const removeCache = () => rmSync(cachePath, { recursive: true, force: true })
  const argv = [
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--chain-id',
    String(chainId),
    '--gas-limit',
    String(gasLimit),
    '--cache-path',
    cachePath,
  ]
  if (loadStatePath) argv.push('--load-state', loadStatePath)
  argv.push(...args)
  const { command, commandArgs, diesWithParent } = withParentDeathSignal(anvilBinaryPath(), argv)
  // A signal to the whole process group (Ctrl-C in a terminal, a supervisor stopping the group)
  // would stop anvil at the same instant as this process, so a service closing in order would
  // still be polling a chain already gone. Where the kernel ends anvil with this process anyway,
  // anvil gets a group of its own and is stopped by whoever started it, last.
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], detached: diesWithParent })
  const { release } = stopChildrenOnExit({ child, afterStop: removeCache })
  if (child.pid === undefined) {
    removeCache()
    throw new Error('anvil failed to spawn')
  }
  const pid = child.pid
  // anvil alone must not keep this process alive: a process that is done exits, and its exit
  // handler (stopChildrenOnExit) stops anvil. Whoever uses the chain holds the loop with its own I/O.
  child.unref()
  ;(child.stdout as unknown as { unref?: () => void }).unref?.()
  ;(child.stderr as unknown as { unref?: () => void }).unref?.()

  let tail = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(pid, 'SIGTERM')
      const timer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL')
      }, 3000)
      await exited
      clearTimeout(timer)
    }
    release()
    removeCache()
  }

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`anvil: no "Listening on" within ${timeoutMs} ms:\n${tail}`)), timeoutMs)
      const onData = (chunk: Buffer) => {
        tail = (tail + chunk.toString()).slice(-4000)
        const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(tail)
        if (match) {
          clearTimeout(timer)
          resolve(Number(match[1]))
        }
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)))
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`anvil exited (${code}) before listening:\n${tail}`))
      })
    })
    // Keep draining: anvil logs every RPC call, and a full pipe would block it.
    child.stdout!.removeAllListeners('data')
    child.stdout!.resume()
    child.stderr!.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)))

    const url = `http://127.0.0.1:${port}`
    const deadline = Date.now() + timeoutMs
    for (;;) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        })
        const body = (await res.json()) as { result?: string }
        if (body.result !== undefined && Number(body.result) === chainId) break
      } catch {
        // Not ready yet.
      }
      if (Date.now() > deadline) throw new Error(`anvil at ${url} not healthy within ${timeoutMs} ms`)
      await new Promise((r) => setTimeout(r, 10))
    }
    return { url, port, pid, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** util-linux `setpriv`: sets PR_SET_PDEATHSIG, then execs the command (same PID). */
const SETPRIV = '/usr/bin/setpriv'

/**
 * The one exit no handler of ours sees is SIGKILL (or a crash of node itself): on Linux, have the
 * kernel SIGTERM anvil when this process dies, by exec'ing it through `setpriv --pdeathsig`.
 * Elsewhere (or without util-linux) anvil is spawned directly and only the exit handlers apply.
 */
function withParentDeathSignal(binary: string, argv: string[]): { command: string; commandArgs: string[]; diesWithParent: boolean } {
  if (process.platform !== 'linux' || !existsSync(SETPRIV)) return { command: binary, commandArgs: argv, diesWithParent: false }
  return { command: SETPRIV, commandArgs: ['--pdeathsig', 'SIGTERM', '--', binary, ...argv], diesWithParent: true }
}
