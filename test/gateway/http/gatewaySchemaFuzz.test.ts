import { afterAll, beforeAll, test } from 'vitest'
import { SCOPES } from '../../../src/gateway/auth/scopes.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { gatewayFuzzValues, runGatewaySchemaFuzz } from '../fixtures/runGatewaySchemaFuzz.ts'
import { installSchemathesis } from '../../fixtures/schemathesis.ts'

// Schema-driven fuzzing of the running gateway from the OpenAPI document it serves: schemathesis
// (PyPI, an implementation sharing no code with ours; scripts/install-schemathesis.sh puts it under
// target/) reads GET /openapi.json, generates requests for every operation and every parameter,
// and checks every answer against the document: never a 5xx, every status and content type
// documented, every body (success or problem) valid against its schema, and a request without the
// key refused. Negative mode: requests the document refuses are 4xx problems, never a 5xx.
// FUZZ_SEED and FUZZ_MAX_EXAMPLES vary the run (defaults: seed 1, 20 examples per operation).

const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? 20

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
  values = await gatewayFuzzValues({ db: bed.db, chainId: bed.chain.chainId, launchpad: bed.devnet.market.launchpad! })
}, 900_000)
afterAll(async () => {
  await bed?.stop()
})

const fuzz = (mode: 'positive' | 'negative', checks: string[], phases: string[]) =>
  runGatewaySchemaFuzz({ url: bed.gateway.url, key, values, mode, checks, phases, maxExamples })

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
