import { join } from 'node:path'
import { createKeyStore } from '../src/gateway/auth/createKeyStore.ts'
import { runKeysCommand } from '../src/gateway/auth/runKeysCommand.ts'
import { openDatabase } from '../src/gateway/store/openDatabase.ts'

// `npm run gateway:keys -- <command>`: the operator's key commands on the gateway's database
// (GATEWAY_DATABASE_URL, default var/gateway.sqlite, as `npm start` uses).
const db = await openDatabase({ url: process.env.GATEWAY_DATABASE_URL ?? join(import.meta.dirname, '..', 'var', 'gateway.sqlite') })
try {
  process.stdout.write(`${await runKeysCommand({ keys: createKeyStore({ db }), argv: process.argv.slice(2) })}\n`)
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`)
  process.exitCode = 1
} finally {
  await db.close()
}
