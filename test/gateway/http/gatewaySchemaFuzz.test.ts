import assert from 'node:assert/strict'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { SCOPES } from '../../../src/gateway/auth/scopes.ts'
import { type GatewayTestbed, startGatewayTestbed } from './gatewayTestbed.ts'
import { runCommand } from '../../fixtures/runCommand.ts'

// Schema-driven fuzzing of the running gateway from the OpenAPI document it serves: schemathesis
// (PyPI, an implementation sharing no code with ours; scripts/install-schemathesis.sh puts it under
// target/) reads GET /openapi.json, generates requests for every operation and every parameter,
// and checks every answer against the document: never a 5xx, every status and content type
// documented, every body (success or problem) valid against its schema, and a request without the
// key refused. Negative mode: requests the document refuses are 4xx problems, never a 5xx.
// FUZZ_SEED and FUZZ_MAX_EXAMPLES vary the run (defaults: seed 1, 40 examples per operation).

const root = join(import.meta.dirname, '..', '..', '..')
const schemathesis = join(root, 'target', 'schemathesis-venv', 'bin', 'schemathesis')
const seed = process.env.FUZZ_SEED ?? '1'
const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '40'
/**
 * The operations of the gateway's document: health, config, 8 token routes, 4 wallet routes, transaction status,
 * the plan, swap quote and prepare, launch prepare, 2 claim prepares, 4 metadata prepares (2 deprecated),
 * announcement prepare and publish.
 */
const OPERATIONS = 27

/** A command run from the project root unless told otherwise. */
const run = (command: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) =>
  runCommand(command, args, { cwd: root, ...options })

let bed: GatewayTestbed
let key: string
let values: string
beforeAll(async () => {
  const install = await run('bash', ['scripts/install-schemathesis.sh'])
  assert.equal(install.code, 0, `scripts/install-schemathesis.sh failed:\n${install.output}`)
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

async function fuzz(mode: 'positive' | 'negative', checks: string[], phases: string[]) {
  const { code, output } = await run(
    schemathesis,
    [
      'run',
      `${bed.gateway.url}/openapi.json`,
      '--header',
      `x-api-key: ${key}`,
      '--mode',
      mode,
      '--checks',
      checks.join(','),
      '--phases',
      phases.join(','),
      '--max-examples',
      maxExamples,
      '--seed',
      seed,
      // The seed alone decides the run: no example database carried over from earlier runs.
      '--generation-database',
      'none',
      '--workers',
      '1',
      '--request-timeout',
      '30',
      '--output-sanitize',
      'false',
    ],
    {
      env: { SCHEMATHESIS_HOOKS: 'gateway_fuzz_hooks', PYTHONPATH: join(import.meta.dirname, 'schemaFuzz'), FUZZ_GATEWAY_VALUES: values },
      cwd: join(root, 'target'),
    },
  )
  assert.equal(code, 0, `schemathesis (${mode}, seed ${seed}) found failures:\n${output}`)
  // Not vacuous: the run loaded the document and tested every operation.
  assert.match(output, new RegExp(`Operations:\\s+${OPERATIONS} selected / ${OPERATIONS} total`), output)
  assert.match(output, new RegExp(`Tested: ${OPERATIONS}`), output)
}

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
