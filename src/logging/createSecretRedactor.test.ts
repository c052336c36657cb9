import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'vitest'
import { HttpRequestError } from 'viem'
import { createSecretRedactor } from './createSecretRedactor.ts'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

test('an RPC URL keeps its scheme and host; its path key, query key and credentials are gone, wherever they appear', () => {
  const pathKey = 'Zx9kQ2mP7rT4vW8yB3nL6hJ1'
  const queryKey = 'q8Fh2Lk9Rt5Wz3Xc7Vb1Nm4'
  const redact = createSecretRedactor({
    urls: [
      `https://base-mainnet.g.alchemy.com/v2/${pathKey}`,
      `https://rpc.example.org/base?apikey=${queryKey}`,
      'https://alice:s3cr3t-pa55word@node.example.net:8545/rpc',
    ],
  })
  const viemText = new HttpRequestError({ url: `https://base-mainnet.g.alchemy.com/v2/${pathKey}`, status: 401 }).message
  assert.match(viemText, new RegExp(pathKey), 'viem prints the key (the reason for this redactor)')
  const out = redact(viemText)
  assert.ok(!out.includes(pathKey))
  assert.match(out, /URL: https:\/\/base-mainnet\.g\.alchemy\.com\/\[redacted\]/)
  assert.match(out, /Status: 401/)

  const lines = [
    `fetch https://rpc.example.org/base?apikey=${queryKey} failed`,
    `{"msg":"bad","detail":"key ${queryKey} refused","url":"https://rpc.example.org/base?apikey=${encodeURIComponent(queryKey)}"}`,
    'connect https://alice:s3cr3t-pa55word@node.example.net:8545/rpc refused',
    'URL: https://node.example.net:8545/rpc',
    `authorization: Basic ${Buffer.from('alice:s3cr3t-pa55word').toString('base64')}`,
    'password s3cr3t-pa55word in a sentence',
    JSON.stringify({ err: { url: `https://base-mainnet.g.alchemy.com/v2/${pathKey}`, cause: { message: `v2/${pathKey}` } } }),
  ]
  for (const line of lines) {
    const redacted = redact(line)
    for (const secret of [pathKey, queryKey, 's3cr3t-pa55word', Buffer.from('alice:s3cr3t-pa55word').toString('base64')]) {
      assert.ok(!redacted.includes(secret), `${secret} survived in ${redacted}`)
    }
  }
  assert.match(redact(lines[0]), /https:\/\/rpc\.example\.org\/\[redacted\] failed/)
  assert.match(redact(lines[2]), /connect https:\/\/node\.example\.net:8545\/\[redacted\] refused/)
  // Short path segments (v2, rpc, base) are not secrets on their own: the rest of the log stays readable.
  assert.equal(redact('rpc base v2 at block 12'), 'rpc base v2 at block 12')
})

test('a URL with nothing secret (the embedded chain) is left alone', () => {
  const redact = createSecretRedactor({ urls: ['http://127.0.0.1:8545', 'http://127.0.0.1:8546/'] })
  assert.equal(redact('chain http://127.0.0.1:8545 and http://127.0.0.1:8546/'), 'chain http://127.0.0.1:8545 and http://127.0.0.1:8546/')
})

test('plain secrets are redacted raw and JSON-escaped', () => {
  const signingKey = 'sign"ing\\key-0123456789'
  const redact = createSecretRedactor({ secrets: [signingKey, undefined] })
  assert.equal(redact(`k=${signingKey}`), 'k=[redacted]')
  assert.equal(redact(JSON.stringify({ k: signingKey })), '{"k":"[redacted]"}')
})

test('API keys are recognised by digest only, as a token of the line (query, header, JSON, sentence)', () => {
  const key = 'live_5f2a9c0d7e4b1a38'
  const base64Key = 'c2VjcmV0LWtleS0wMTIzNDU2Nzg5/+=='
  const redact = createSecretRedactor({ apiKeyDigests: [sha256(key), sha256(base64Key).toUpperCase()] })
  for (const line of [
    `GET /openapi.json?api_key=${key}&x=1`,
    `{"x-api-key":"${key}"}`,
    `Bearer ${key}`,
    `the key ${key} is wrong`,
    `token ${base64Key} end`,
  ]) {
    const out = redact(line)
    assert.ok(!out.includes(key) && !out.includes(base64Key), out)
    assert.ok(out.includes('[redacted]'), out)
  }
  // Other long tokens (addresses, request ids) are untouched.
  const line = 'reqId 8c6f0f0e-3b1c-4a53-9a7e-2f1d1f8e9b10 pool 0x5FbDB2315678afecb367f032d93F642f64180aa3'
  assert.equal(redact(line), line)
})
