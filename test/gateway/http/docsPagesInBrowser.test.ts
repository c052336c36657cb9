import assert from 'node:assert/strict'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { loadConfig } from '../../../src/config/loadConfig.ts'
import { type SwapService, startSwapService } from '../../../src/startSwapService.ts'
import { runCommand } from '../../fixtures/runCommand.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'

// Both surfaces' reference pages in a real headless browser (Debian's chromium, installed by
// scripts/chromium.sh when missing): each page loads from the service alone (no network), and
// Swagger UI renders its operations (the DOM after the scripts ran holds one block per operation).

const root = join(import.meta.dirname, '..', '..', '..')
let chromium: string
let service: SwapService
let bed: GatewayTestbed
let swapUrl: string

beforeAll(async () => {
  const found = await runCommand('bash', ['scripts/chromium.sh'], { cwd: root })
  assert.equal(found.code, 0, found.output)
  chromium = found.output.trim().split('\n').at(-1)!
  service = await startSwapService({ config: loadConfig({ API_KEYS: 'docs-key-0123456789abcdef' }), logger: false })
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address() as { port: number }
  swapUrl = `http://127.0.0.1:${address.port}`
  bed = await startGatewayTestbed({ devnet: service.devnet! })
}, 900_000)
afterAll(async () => {
  await bed?.stop()
  await service?.fastify.close()
})

/** The page's DOM once its scripts ran (chromium's own virtual time: no wall-clock sleep). */
async function renderedDom(url: string): Promise<string> {
  const { code, output } = await runCommand(
    chromium,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--virtual-time-budget=15000', '--dump-dom', url],
    { cwd: root },
  )
  assert.equal(code, 0, output.slice(0, 2000))
  return output
}

test("the swap surface's and the gateway's /docs pages render their operations in chromium", { timeout: 300_000 }, async () => {
  const gateway = await renderedDom(`${bed.gateway.url}/docs/`)
  for (const path of [
    '/launches/prepare',
    '/swaps/quote',
    '/plans/{id}',
    '/claims/fees/prepare',
    '/tokens/{chain}/{token}/announcements/prepare',
  ]) {
    assert.ok(gateway.includes(`data-path="${path}"`), `the gateway page renders ${path}`)
  }
  assert.ok((gateway.match(/class="opblock /g) ?? []).length >= 27, 'every gateway operation is rendered')
  const swap = await renderedDom(`${swapUrl}/docs/`)
  assert.ok(swap.includes('data-path="/quote"'), 'the swap page renders /quote')
})
