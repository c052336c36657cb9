import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { SOLVER_DEFAULT_TIME_BUDGET_MS } from './solverTimeBudget.ts'

test("the service mirrors the solver's default time budget exactly", () => {
  const source = readFileSync(join(import.meta.dirname, '..', '..', 'solver-rs', 'src', 'solver.rs'), 'utf8')
  const found = source.match(/pub const DEFAULT_TIME_BUDGET_MS: u32 = (\d+);/)
  assert.ok(found, 'DEFAULT_TIME_BUDGET_MS in solver.rs')
  assert.equal(SOLVER_DEFAULT_TIME_BUDGET_MS, Number(found[1]))
})
