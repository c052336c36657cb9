import assert from 'node:assert/strict'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { type HttpTestStack, KEY_A, NATIVE, startHttpTestStack } from './startHttpTestStack.ts'
import { fuzzOpenApi, installSchemathesis } from '../fixtures/schemathesis.ts'

// Schema-driven fuzzing of the running service from the document it serves: schemathesis (PyPI,
// installed by scripts/install-schemathesis.sh into target/) reads GET /openapi.json, generates
// requests from it, and checks every answer against it. Positive mode: a request the document
// accepts is never a 5xx, never refused for a rule the document does not state (only the market or
// a stored quote may still say no: test/http/schemaFuzz/swap_fuzz_hooks.py), each answer's status
// is documented and its body matches the documented schema, and requests without the key are 401.
// The stateful phase follows the document's links from /quote and /execute to /submit, so /submit
// is fuzzed on real quotes. Negative mode: a request the document refuses is a 4xx, never a 5xx.
// The app has upstream aggregators configured (the demo's six stand-ins, each speaking its API over
// loopback, answering at once), so /quote/compare and /quote/split are in the document and fuzzed too.
// FUZZ_SEED and FUZZ_MAX_EXAMPLES vary the run (defaults: seed 1, 20 examples per operation).

let stack: HttpTestStack
let app: FastifyInstance
let baseUrl: string
let marketTokens: string[]
let marketPools: string[]

beforeAll(async () => {
  await installSchemathesis()
  stack = await startHttpTestStack()
  app = await stack.makeApp({ upstreams: await stack.demoUpstreams() })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  assert.ok(address && typeof address === 'object')
  baseUrl = `http://127.0.0.1:${address.port}`
  marketTokens = [...Object.values(stack.service.devnet!.market.tokens).map((t) => t.address), NATIVE]
  marketPools = stack.service.market.pools().map((pool) => pool.ref.id)
}, 600_000)

afterAll(async () => {
  await stack?.close()
})

const fuzz = (mode: 'positive' | 'negative', checks: string[], phases: string[]) =>
  fuzzOpenApi({
    openApiUrl: `${baseUrl}/openapi.json`,
    apiKey: KEY_A,
    mode,
    checks,
    phases,
    maxExamples: process.env.FUZZ_MAX_EXAMPLES ?? 20,
    // ExecuteRequest's mutual exclusions (legacy gas price or EIP-1559 fees, native flags against
    // the tokens) make the generator discard many drafts; that is the schema's shape, not a defect
    // of the service, and the kept examples are still run (fuzzOpenApi counts the operations).
    extraArgs: ['--suppress-health-check', 'filter_too_much'],
    hooks: 'swap_fuzz_hooks',
    hooksDir: join(import.meta.dirname, 'schemaFuzz'),
    env: {
      FUZZ_OPENAPI_URL: `${baseUrl}/openapi.json`,
      FUZZ_MARKET_TOKENS: marketTokens.join(','),
      FUZZ_MARKET_POOLS: marketPools.join(','),
    },
    operations: 8, // health, ready, quote, submit, execute, market pool, compare, split
  })

test(
  'every request the document accepts is answered as documented: never a 5xx, never an unstated 400',
  { timeout: 1_200_000 },
  async () => {
    await fuzz(
      'positive',
      [
        'not_a_server_error',
        'status_code_conformance',
        'content_type_conformance',
        'response_headers_conformance',
        'response_schema_conformance',
        'ignored_auth',
        'schema_valid_requests_are_answered',
        'every_operation_answers_200',
      ],
      ['examples', 'coverage', 'fuzzing', 'stateful'],
    )
  },
)

test('every request the document refuses is a documented 4xx with an {error} body, never a 5xx', { timeout: 1_200_000 }, async () => {
  await fuzz(
    'negative',
    ['not_a_server_error', 'negative_data_rejection', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'],
    ['coverage', 'fuzzing'],
  )
})
