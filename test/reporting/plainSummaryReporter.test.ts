import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'vitest'

const fixtures = join(import.meta.dirname, 'fixtures')

test('a run ends with its costliest and slowest files, then one plain "N passed, N failed, N skipped" line that counts errors outside tests as failures', () => {
  const vitest = join(import.meta.dirname, '..', '..', 'node_modules', 'vitest', 'vitest.mjs')
  const run = spawnSync(process.execPath, [vitest, 'run', '--root', fixtures, '--config', join(fixtures, 'vitest.config.ts')], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: '1' },
  })
  assert.equal(run.status, 1, `vitest exit status; stderr:\n${run.stderr}`)
  const lines = run.stdout.trimEnd().split('\n')
  assert.equal(lines.at(-1), 'vitest: 3 passed, 3 failed, 3 skipped', `last line of:\n${run.stdout}`)
  // Before it, the slowest files with their seconds: here the one file of the fixture.
  assert.equal(lines.at(-3), 'vitest: slowest files (s)', `the slowest files' header in:\n${run.stdout}`)
  assert.match(lines.at(-2)!, /^ +\d+\.\d  outcomes\.fixture\.ts$/)
  // Before those, the costliest by CPU, which the setup file recorded (Linux's /proc).
  assert.match(lines.at(-5)!, /^vitest: costliest files \(CPU s, the file's process and its children; all files \d+\)$/, run.stdout)
  assert.match(lines.at(-4)!, /^ +\d+\.\d  outcomes\.fixture\.ts$/)
})
