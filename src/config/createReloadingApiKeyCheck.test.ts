import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'vitest'
import { createReloadingApiKeyCheck } from './createReloadingApiKeyCheck.ts'
import { parseApiKeyFile } from './parseApiKeyFile.ts'

test('keys follow the file: added keys work, removed keys are revoked, a bad file is refused whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'))
  const file = join(dir, 'keys.txt')
  const OLD = 'old-key-0123456789abcdef'
  const NEW = 'new-key-0123456789abcdef'
  writeFileSync(file, `${OLD}\n`)
  const lines: string[] = []
  const keys = createReloadingApiKeyCheck({
    file,
    fixed: [],
    initial: parseApiKeyFile({ text: `${OLD}\n`, source: 'API_KEYS_FILE' }).entries,
    intervalMs: 20,
    log: (l) => lines.push(l),
  })
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    assert.ok(ok())
  }
  assert.ok(keys.check(OLD))
  assert.equal(keys.check(NEW), undefined)
  // Rotation: both valid during the overlap...
  writeFileSync(file, `${OLD}\n${NEW} maxFeeBps=50\n`)
  await until(() => keys.check(NEW) !== undefined)
  assert.ok(keys.check(OLD))
  assert.equal(keys.settingsOf(keys.check(NEW) as string).maxFeeBps, 50)
  // ...a bad file changes nothing, and names the line, never the key...
  writeFileSync(file, `${NEW}\nshort\n`)
  await until(() => lines.some((l) => l.startsWith('API_KEYS_FILE: refused')))
  assert.ok(keys.check(OLD) && keys.check(NEW))
  assert.ok(!lines.join('\n').includes('short') || lines.join('\n').includes('line 2'))
  assert.ok(!lines.join('\n').includes(NEW))
  // ...and removing the old key revokes it.
  writeFileSync(file, `${NEW}\n`)
  await until(() => keys.check(OLD) === undefined)
  assert.ok(keys.check(NEW))
  assert.equal(keys.size, 1)
  keys.close()
  rmSync(dir, { recursive: true, force: true })
})
