import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { problemCodes } from './problemCodes.ts'

// Spec §7's table, transcribed here apart from problemCodes.ts (code and status only).
const SPEC_TABLE: Record<string, number[]> = {
  invalid_request: [400, 413],
  unknown_parameter: [400],
  duplicate_parameter: [400],
  incompatible_parameters: [400],
  invalid_parameter: [400],
  missing_idempotency_key: [400],
  invalid_idempotency_key: [400],
  missing_api_key: [401],
  invalid_api_key: [401],
  origin_not_allowed: [403],
  insufficient_scope: [403],
  wallet_not_authorized: [403],
  not_found: [404],
  stale_plan: [409],
  stale_quote: [409],
  salt_unavailable: [409],
  invalid_permit: [409],
  approval_not_confirmed: [409],
  announcement_id_conflict: [409],
  cursor_filter_mismatch: [409],
  cursor_stale: [409],
  idempotency_in_progress: [409],
  nothing_to_claim: [409],
  unsupported_operation: [422],
  unsupported_chain: [422],
  idempotency_key_reused: [422],
  invalid_amount: [422],
  invalid_referrer: [422],
  invalid_allocation: [422],
  invalid_vesting: [422],
  insufficient_balance: [422],
  quote_unavailable: [422],
  simulation_failed: [422],
  rate_limit_exceeded: [429],
  quota_exceeded: [429],
  internal_error: [500],
  upstream_error: [502],
  temporarily_unavailable: [503],
  upstream_timeout: [504],
}

test('the codes table has all 39 codes of spec §7, each with its status(es), title, section and action', () => {
  assert.equal(Object.keys(SPEC_TABLE).length, 39)
  assert.deepEqual(Object.keys(problemCodes).sort(), Object.keys(SPEC_TABLE).sort())
  for (const [code, statuses] of Object.entries(SPEC_TABLE))
    assert.deepEqual([...problemCodes[code as keyof typeof problemCodes].statuses], statuses, code)
  for (const [code, entry] of Object.entries(problemCodes))
    assert.ok(entry.title.length > 0 && entry.action.length > 0 && entry.section.length > 0, code)
})

test("and the transcription is the spec's, where the spec is at hand (the shared folder beside the checkout)", () => {
  const candidates = [
    join(import.meta.dirname, '..', '..', '..', '..', 'shared'),
    join(import.meta.dirname, '..', '..', '..', '..', '..', 'shared'),
  ].map((d) => join(d, 'spec', '001_faeebb779f85eb09.txt'))
  const path = candidates.find((p) => existsSync(p))
  if (!path) return
  const spec = readFileSync(path, 'utf8')
  const section = spec.slice(spec.indexOf('| Code | Status | Condition |'), spec.indexOf('## 8. Limits'))
  const rows = [...section.matchAll(/^\| ([a-z_]+) \| ([0-9]{3})(?: or ([0-9]{3}))? \|/gm)].map(
    (m) => [m[1], [Number(m[2]), ...(m[3] ? [Number(m[3])] : [])]] as const,
  )
  assert.deepEqual(Object.fromEntries(rows), SPEC_TABLE)
})
