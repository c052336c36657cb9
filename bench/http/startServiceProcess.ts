import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export type ServiceProcess = { url: string; metricsUrl: string; stop: () => Promise<void> }

/**
 * Bench support: one service instance in its own process (`src/server.ts`, as `npm start` runs it)
 * with `env` added to this process's environment, on a free loopback port and its `GET /metrics` on
 * another; resolves once `GET /ready` answers 200 (the market is at the head). Its output is kept
 * and printed if it dies.
 *
 * @example
 * const a = await startServiceProcess({ env: { RPC_URL, REDIS_URL, API_KEYS } })
 * // → { url: 'http://127.0.0.1:<port>', metricsUrl: 'http://127.0.0.1:<port>/metrics', stop } once /ready answers 200
 * await a.stop()
 */
export async function startServiceProcess({
  env,
  readyTimeoutMs = 600_000,
}: {
  env: Record<string, string>
  readyTimeoutMs?: number
}): Promise<ServiceProcess> {
  const port = await freePort()
  const metricsPort = await freePort()
  const output: string[] = []
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'server.ts')], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk) => output.push(String(chunk)))
  child.stderr?.on('data', (chunk) => output.push(String(chunk)))
  let exited = false
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      resolve()
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (exited) throw new Error(`service process exited before it was ready:\n${output.join('').slice(-4000)}`)
    const ready = await fetch(`${url}/ready`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`service process not ready in ${readyTimeoutMs} ms:\n${output.join('').slice(-4000)}`)
    }
    await sleep(250)
  }
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    stop: async () => {
      if (!exited) child.kill('SIGTERM')
      await exit
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
