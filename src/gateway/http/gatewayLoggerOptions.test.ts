import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { test } from 'vitest'
import { createSecretRedactor } from '../../logging/createSecretRedactor.ts'
import { gatewayLoggerOptions } from './gatewayLoggerOptions.ts'

test("the gateway's log lines lose every key's secret, the x-api-key header and the deployment's own secrets", async () => {
  const lines: string[] = []
  const stream = new Writable({
    write: (chunk, _enc, done) => {
      lines.push(String(chunk))
      done()
    },
  })
  const key = 'gw_live_abcdefghijkl_00112233445566778899aabbccddeeff'
  const rpc = 'https://base.example/v2/verysecretproviderkey'
  const fastify = Fastify({
    logger: gatewayLoggerOptions({ logger: { level: 'info', stream }, redact: createSecretRedactor({ urls: [rpc] }) }) as never,
  })
  fastify.get('/x', async (request) => {
    request.log.info({ headers: request.headers }, `failed with ${key} at ${rpc}`)
    request.log.error({ err: new Error(`upstream said: bad key gw_test_abcdefghijkl_ffeeddccbbaa99887766554433221100`) }, 'boom')
    return {}
  })
  await fastify.inject({ url: '/x', headers: { 'x-api-key': key } })
  await fastify.close()
  const all = lines.join('')
  assert.ok(all.includes('gw_live_abcdefghijkl_[redacted]'), all)
  assert.ok(all.includes('gw_test_abcdefghijkl_[redacted]'))
  assert.ok(!all.includes('00112233445566778899aabbccddeeff'))
  assert.ok(!all.includes('ffeeddccbbaa99887766554433221100'))
  assert.ok(!all.includes('verysecretproviderkey'))
  assert.ok(all.includes('https://base.example/[redacted]'))
})
