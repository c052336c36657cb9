import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { openDatabase } from '../store/openDatabase.ts'
import type { SqlDatabase } from '../store/SqlDatabase.ts'
import { parseApiKey } from './apiKeyFormat.ts'
import { createKeyStore } from './createKeyStore.ts'
import { runKeysCommand } from './runKeysCommand.ts'

let dir: string
let db: SqlDatabase
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-cli-'))
  db = await openDatabase({ url: join(dir, 'keys.sqlite') })
})
afterAll(async () => {
  await db?.close()
  rmSync(dir, { recursive: true, force: true })
})

test('create, list, revoke: the key is shown once, its settings stored; bad input is refused with the reason', async () => {
  const keys = createKeyStore({ db })
  const out = await runKeysCommand({
    keys,
    argv: [
      'create',
      '--owner',
      'ops@example.com',
      '--plan',
      'builder',
      '--scopes',
      'tokens:read,holders:read',
      '--origins',
      'https://app.example',
    ],
  })
  const parsed = parseApiKey(out.split('\n')[0])!
  assert.ok(parsed)
  const [record] = await keys.list()
  assert.deepEqual(
    [record.plan, [...record.scopes], [...record.allowedOrigins]],
    ['builder', ['tokens:read', 'holders:read'], ['https://app.example']],
  )
  assert.match(await runKeysCommand({ keys, argv: ['list'] }), new RegExp(`^${parsed.prefix}\tactive\tbuilder`))
  assert.match(await runKeysCommand({ keys, argv: ['revoke', parsed.prefix] }), /revoked/)
  assert.equal((await keys.list())[0].status, 'revoked')
  // A revocation is final: neither activate nor deactivate undoes it, revoking again is harmless.
  await assert.rejects(runKeysCommand({ keys, argv: ['activate', parsed.prefix] }), /revocation is final/)
  await assert.rejects(runKeysCommand({ keys, argv: ['deactivate', parsed.prefix] }), /revocation is final/)
  assert.match(await runKeysCommand({ keys, argv: ['revoke', parsed.prefix] }), /revoked/)
  assert.equal((await keys.list())[0].status, 'revoked')
  await assert.rejects(runKeysCommand({ keys, argv: ['create', '--owner', 'x', '--scopes', 'tokens:write'] }), /unknown tokens:write/)
  await assert.rejects(runKeysCommand({ keys, argv: ['create', '--owner', 'x', '--plan', 'partner'] }), /--limits is required/)
  await assert.rejects(runKeysCommand({ keys, argv: ['create', '--owner', 'x', '--origins', 'app.example'] }), /scheme:\/\/host/)
  await assert.rejects(runKeysCommand({ keys, argv: ['revoke', 'nosuchprefix'] }), /no key/)
  await assert.rejects(runKeysCommand({ keys, argv: ['frobnicate'] }), /usage/)
  const partner = await runKeysCommand({
    keys,
    argv: [
      'create',
      '--owner',
      'p@example.com',
      '--plan',
      'partner',
      '--limits',
      '{"unitsPerMinute":5000,"burstPerSecond":200,"daily":1000000,"monthly":20000000,"maxPage":200}',
    ],
  })
  assert.match(partner, /plan partner/)
})
