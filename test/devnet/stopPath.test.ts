import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, test } from 'vitest'
import { startSeededDevnet } from '../../src/devnet/startSeededDevnet.ts'

// The stop path, end to end: a separate node process starts the seeded devnet and ends without
// calling stop(), in each way a service can end; afterwards its anvil must be gone. "Gone" is
// `kill(pid, 0)` failing or the process being a zombie: in this container PID 1 may never reap the
// orphan, and a zombie holds no port, memory or state.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'seededDevnetService.ts')

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; comm may contain spaces, the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await sleep(25)) if (!alive(pid)) return true
  return !alive(pid)
}

type Run = {
  child: ChildProcess
  anvilPid: number
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  stderr: () => string
}

async function startService(mode: string): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, mode], { stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()))
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const anvilPid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode}: no anvil pid within 60 s; stderr:\n${stderr}`)), 60_000)
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString()
      const line = stdout.split('\n').find((l) => l.startsWith('{'))
      if (line) {
        clearTimeout(timer)
        resolve((JSON.parse(line) as { anvilPid: number }).anvilPid)
      }
    })
    void exit.then(() => {
      clearTimeout(timer)
      reject(new Error(`${mode}: service exited before printing the anvil pid; stderr:\n${stderr}`))
    })
  })
  assert.ok(alive(anvilPid), `${mode}: anvil ${anvilPid} is not running while the service is up`)
  return { child, anvilPid, exit, stderr: () => stderr }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)))
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

beforeAll(async () => {
  // Make sure the saved state is current, so each service start is a load (about a second), not a seed.
  const devnet = await startSeededDevnet({})
  await devnet.stop()
})

const endings: { mode: string; signal?: NodeJS.Signals; expect: { code?: number; signal?: NodeJS.Signals } }[] = [
  { mode: 'exit', expect: { code: 0 } },
  { mode: 'return', expect: { code: 0 } },
  { mode: 'throw', expect: { code: 1 } },
  { mode: 'reject', expect: { code: 1 } },
  { mode: 'wait', signal: 'SIGTERM', expect: { code: 143 } },
  { mode: 'wait', signal: 'SIGINT', expect: { code: 130 } },
  { mode: 'wait', signal: 'SIGHUP', expect: { code: 129 } },
  { mode: 'wait', signal: 'SIGKILL', expect: { signal: 'SIGKILL' } },
]

for (const { mode, signal, expect } of endings) {
  const how = signal
    ? `is sent ${signal}`
    : {
        exit: 'calls process.exit(0)',
        return: 'returns from its main module',
        throw: 'throws an uncaught error',
        reject: 'leaves a rejection unhandled',
      }[mode]
  test(`no orphan anvil when the service ${how}`, { timeout: 120_000 }, async () => {
    const run = await startService(mode)
    try {
      if (signal) run.child.kill(signal)
      else run.child.stdin!.write('end\n')
      const ended = await withTimeout(run.exit, 20_000, `service (${mode}${signal ? `, ${signal}` : ''}) exit`)
      if (expect.code !== undefined) assert.equal(ended.code, expect.code, `exit code; stderr:\n${run.stderr()}`)
      if (expect.signal !== undefined) assert.equal(ended.signal, expect.signal)
      assert.ok(await gone(run.anvilPid, 5_000), `anvil ${run.anvilPid} outlived the service (${mode}${signal ? `, ${signal}` : ''})`)
    } finally {
      // Never leave our own children behind, whatever failed above.
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
      if (alive(run.anvilPid)) process.kill(run.anvilPid, 'SIGKILL')
    }
  })
}
