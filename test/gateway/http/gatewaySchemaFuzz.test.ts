import assert from 'node:assert/strict'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { SCOPES } from '../../../src/gateway/auth/scopes.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { fuzzOpenApi, installSchemathesis } from '../../fixtures/schemathesis.ts'

// Schema-driven fuzzing of the running gateway from the OpenAPI document it serves: schemathesis
// (PyPI, an implementation sharing no code with ours; scripts/install-schemathesis.sh puts it under
// target/) reads GET /openapi.json, generates requests for every operation and every parameter,
// and checks every answer against the document: never a 5xx, every status and content type
// documented, every body (success or problem) valid against its schema, and a request without the
// key refused. Negative mode: requests the document refuses are 4xx problems, never a 5xx.
// FUZZ_SEED and FUZZ_MAX_EXAMPLES vary the run (defaults: seed 1, 40 examples per operation).

/**
 * The operations of the gateway's document: health, config, 8 token routes, 4 wallet routes, transaction status,
 * the plan, swap quote and prepare, launch prepare, 2 claim prepares, 4 metadata prepares (2 deprecated),
 * announcement prepare and publish.
 */
const OPERATIONS = 27

let bed: GatewayTestbed
let key: string
let values: string
beforeAll(async () => {
  await installSchemathesis()
  bed = await startGatewayTestbed({})
  // Room for every generated request: the fuzzer checks answers, not the plan (conventions.test.ts does).
  key = (
    await bed.key({
      scopes: [...SCOPES],
      plan: 'partner',
      customLimits: { unitsPerMinute: 10_000_000, burstPerSecond: 10_000_000, daily: 100_000_000, monthly: 1_000_000_000, maxPage: 200 },
    })
  ).key
  const lp = bed.devnet.market.launchpad!
  const transactions = (await bed.db.query<{ launch_tx: string }>('SELECT launch_tx FROM tokens LIMIT 5')).map((r) => r.launch_tx)
  values = JSON.stringify({
    chain: bed.chain.chainId,
    tokens: lp.tokens.slice(0, 8).map((t) => t.address),
    wallets: [...lp.creators.slice(0, 4), ...lp.traders.slice(0, 4)],
    transactions,
  })
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

const fuzz = (mode: 'positive' | 'negative', checks: string[], phases: string[]) =>
  fuzzOpenApi({
    openApiUrl: `${bed.gateway.url}/openapi.json`,
    apiKey: key,
    mode,
    checks,
    phases,
    maxExamples: 40,
    hooks: 'gateway_fuzz_hooks',
    hooksDir: join(import.meta.dirname, 'schemaFuzz'),
    env: { FUZZ_GATEWAY_VALUES: values },
    operations: OPERATIONS,
  })

test(
  'every request the document accepts is answered as documented: never a 5xx, every body valid against its schema',
  { timeout: 1_800_000 },
  async () => {
    await fuzz(
      'positive',
      ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance', 'ignored_auth'],
      ['examples', 'coverage', 'fuzzing'],
    )
  },
)

test('every request the document refuses is a documented 4xx problem, never a 5xx', { timeout: 1_800_000 }, async () => {
  await fuzz(
    'negative',
    ['not_a_server_error', 'negative_data_rejection', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'],
    ['coverage', 'fuzzing'],
  )
})
