import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'vitest'
import { spawnServer } from '../fixtures/spawnServer.ts'

// `src/server.ts` as `npm start` runs it: banner (URL, development key, curl), a working quote
// with the printed command's body and key, and a graceful close on SIGTERM and SIGINT that stops
// the embedded chain. Bad configuration: exit 1 naming the variable.

async function waitFor(output: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const m = output().match(pattern)
    if (m) return m
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${pattern}; output:\n${output()}`)
}

/** The process group of a live process (/proc/<pid>/stat's fifth field; comm may hold spaces). */
function processGroup(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

// SIGTERM to the server alone (a supervisor stopping one process), SIGINT to its whole process group
// (a terminal's Ctrl-C reaches anvil too, unless anvil leads a group of its own): either way the
// service closes in order, the market and keeper stopped before the chains, so nothing fails after
// "closing".
for (const { signal, group } of [
  { signal: 'SIGTERM', group: false },
  { signal: 'SIGINT', group: true },
] as const) {
  const to = group ? "the server's process group" : 'the server'
  test(
    `npm start: banner, the printed curl works, ${signal} to ${to} closes everything in order and exits 0`,
    { timeout: 240_000 },
    async () => {
      const server = spawnServer({}, { processGroup: group })
      try {
        await waitFor(server.output, /try a quote[^\n]*\n[^\n]*\n/, 200_000)
        const url = (await waitFor(server.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 1000))[1]
        const key = (await waitFor(server.output, /development API key: (dev_[0-9a-f]{32})/, 1000))[1]
        const anvilPid = Number((await waitFor(server.output, /anvil pid (\d+)/, 1000))[1])
        const body = (await waitFor(server.output, /-d '(\{[^']+\})'/, 1000))[1]
        assert.ok(isAlive(anvilPid))
        // The gateway serves the three embedded chains, 4663 and 143 each on its own anvil.
        assert.match(
          server.output(),
          /launch gateway listening on http:\/\/[\d.:]+ \([^)]*\), chains 8453, 4663, 143, development key: gw_test_/,
        )
        const otherPids = [4663, 143].map((id) =>
          Number(server.output().match(new RegExp(`embedded chain ${id}: http://[\\d.:]+ \\(anvil pid (\\d+)`))![1]),
        )
        assert.ok(otherPids.every(isAlive))
        // Each chain leads a group of its own: a signal to the server's group does not stop it under the
        // service (the kernel still stops it if the server dies: stopPath.test.ts).
        for (const pid of [anvilPid, ...otherPids]) assert.equal(processGroup(pid), pid, `anvil ${pid} leads its own process group`)
        // The gateway says where metadata documents go: its own blockstore without IPFS_API_URL.
        assert.match(server.output(), /metadata documents pinned to the embedded blockstore, var\/ipfs\/blocks/)
        // The gateway's port was bound in the first second (serverLoading.test.ts) and handed over: the
        // same address now answers as the gateway, its development key accepted.
        const early = (await waitFor(server.output, /launch gateway loading, listening on (http:\/\/127\.0\.0\.1:\d+)/, 1000))[1]
        const gateway = server.output().match(/launch gateway listening on (http:\/\/[\d.:]+) .*development key: (gw_test_\S+)/)!
        assert.equal(gateway[1], early)
        const gatewayHealth = (await (await fetch(`${early}/health`)).json()) as { ready: boolean; chains: unknown[] }
        assert.equal(gatewayHealth.ready, true)
        assert.equal(gatewayHealth.chains.length, 3)
        assert.equal((await fetch(`${early}/tokens?sort=trending`, { headers: { 'x-api-key': gateway[2] } })).status, 200)
        assert.equal((await fetch(`${url}/health`)).status, 200)
        const quote = await fetch(`${url}/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body,
        })
        assert.equal(quote.status, 200, await quote.clone().text())
        assert.match(((await quote.json()) as { quoteId: string }).quoteId, /^[0-9a-f]{64}$/)
        assert.equal(
          (await fetch(`${url}/quote`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'nope' }, body }))
            .status,
          401,
        )
        if (group) process.kill(-server.child.pid!, signal)
        else server.child.kill(signal)
        assert.equal(await server.exited, 0, server.output())
        // Nothing above info once closing began: no refresh, keeper or indexer call to a chain already gone.
        const afterClosing = server.output().slice(server.output().indexOf('"msg":"closing"'))
        const failures = afterClosing.split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { level: number }).level > 30)
        assert.deepEqual(failures, [], afterClosing)
        for (let i = 0; i < 50 && isAlive(anvilPid); i++) await new Promise((resolve) => setTimeout(resolve, 100))
        assert.ok(!isAlive(anvilPid), 'the embedded chain stopped')
        for (let i = 0; i < 50 && otherPids.some(isAlive); i++) await new Promise((resolve) => setTimeout(resolve, 100))
        assert.ok(!otherPids.some(isAlive), 'the other embedded chains stopped')
        // Log lines (JSON) carry request ids and never the key; only the banner prints it.
        const logLines = server
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
        assert.ok(logLines.some((l) => l.includes('"reqId"')))
        assert.ok(logLines.every((l) => !l.includes(key)))
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL')
      }
    },
  )
}

test('bad configuration: exit 1, every bad variable named', { timeout: 60_000 }, async () => {
  const server = spawnServer({ PORT: 'eighty', RATE_LIMIT_PER_MINUTE: '0' })
  assert.equal(await server.exited, 1)
  assert.match(server.output(), /invalid configuration/)
  assert.match(server.output(), /PORT: /)
  assert.match(server.output(), /RATE_LIMIT_PER_MINUTE: /)
})
