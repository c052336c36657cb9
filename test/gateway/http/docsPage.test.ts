import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { problemCodes } from '../../../src/gateway/problems/problemCodes.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// GET /docs on the gateway: the reference page is public (a browser cannot send x-api-key on a
// page load), served offline from the package's own files, over the same document as
// /openapi.json, whose description links every problem code to its section of /problems.
// (The page rendered in a real browser: docsPagesInBrowser.test.ts.)

let bed: GatewayTestbed
beforeAll(async () => {
  bed = await startGatewayTestbed({})
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

test('GET /docs needs no key, costs nothing and loads only its own files; /docs/json is the OpenAPI document with the write routes', async () => {
  const page = await bed.get('/docs/')
  assert.equal(page.status, 200)
  assert.match(page.headers.get('content-type')!, /text\/html/)
  assert.equal(page.headers.get('ratelimit'), null)
  const html = await page.text()
  const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
  assert.ok(assets.length > 0)
  for (const asset of assets) {
    assert.ok(!/^https?:\/\//.test(asset), `${asset} is fetched from the network`)
    const url = new URL(asset, `${bed.gateway.url}/docs/`)
    const response = await fetch(url)
    assert.equal(response.status, 200, asset)
    // Read to the end: an unread body (the Swagger UI bundle is about 1 MB) keeps its connection
    // busy, and the gateway's close then waits for it to time out (72 s).
    await response.arrayBuffer()
  }
  const initializer = await (await bed.get('/docs/static/swagger-initializer.js')).text()
  assert.ok(
    !/validator\.swagger\.io/.test(initializer) || /validatorUrl":\s*null|validatorUrl:\s*null|"validatorUrl":false/.test(initializer),
  )
  const doc = (await (await bed.get('/docs/json')).json()) as { paths: Record<string, unknown>; info: { description: string } }
  assert.deepEqual(doc, await (await bed.get('/openapi.json')).json())
  for (const path of [
    '/launches/prepare',
    '/swaps/quote',
    '/swaps/prepare',
    '/claims/fees/prepare',
    '/claims/vesting/prepare',
    '/plans/{id}',
    '/tokens/{chain}/{token}/metadata/document/prepare',
  ])
    assert.ok(doc.paths[path], path)
  for (const code of Object.keys(problemCodes)) assert.ok(doc.info.description.includes(`(/problems#${code})`), code)
  // This testbed runs no swap market: the swap routes say so.
  const swapKey = (await bed.key({ scopes: ['swap:write'] })).key
  const swap = await bed.post(
    '/swaps/quote',
    {
      chain_id: bed.chain.chainId,
      wallet: bed.chain.wrappedNative,
      token_in: bed.chain.wrappedNative,
      token_out: bed.chain.multicall3,
      amount_in: '1',
    },
    { key: swapKey },
  )
  assert.equal(swap.status, 422)
  assert.equal(((await swap.json()) as { code: string }).code, 'unsupported_operation')
  // The migration guide stays where deprecated routes link to.
  const migration = await bed.get('/docs/migration')
  assert.equal(migration.status, 200)
  await migration.text()
})
