import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { SOLVER_DEFAULT_MAX_HOPS, SOLVER_MAX_HOPS } from './solverHopLimits.ts'

const route = join(import.meta.dirname, '..', '..', 'solver-rs', 'src', 'route')
const rustConstant = (file: string, name: string) => {
  const found = readFileSync(join(route, file), 'utf8').match(new RegExp(`pub const ${name}: u32 = (\\d+);`))
  assert.ok(found, `${name} in ${file}`)
  return Number(found[1])
}

test('the service mirrors the solver limits exactly', () => {
  assert.equal(SOLVER_MAX_HOPS, rustConstant('request.rs', 'MAX_HOPS'))
  assert.equal(SOLVER_DEFAULT_MAX_HOPS, rustConstant('request.rs', 'DEFAULT_MAX_HOPS'))
})
