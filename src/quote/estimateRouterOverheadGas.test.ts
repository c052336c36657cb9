import assert from 'node:assert/strict'
import { test } from 'vitest'
import { calldataGas } from './calldataGas.ts'
import { estimateRouterOverheadGas, routerOverheadGas } from './estimateRouterOverheadGas.ts'

const base = { data: '0x239aaf2c0000' as const, routes: 1, legs: 1, nativeIn: false, nativeOut: false, paysIntegratorFee: false }

test('one route of one leg: intrinsic, calldata, the call and one leg', () => {
  const g = routerOverheadGas
  assert.equal(estimateRouterOverheadGas(base), g.intrinsic + calldataGas(base.data) + g.call + g.perLeg)
})

test('each leg adds the router per-leg cost (its balance reads), each extra route its loop, each term once', () => {
  const g = routerOverheadGas
  const one = estimateRouterOverheadGas(base)
  assert.equal(estimateRouterOverheadGas({ ...base, legs: 4 }) - one, 3 * g.perLeg)
  assert.equal(estimateRouterOverheadGas({ ...base, routes: 3, legs: 3 }) - one, 2 * g.extraRoute + 2 * g.perLeg)
  assert.equal(
    estimateRouterOverheadGas({ ...base, nativeIn: true, nativeOut: true, paysIntegratorFee: true }) - one,
    g.nativeIn + g.nativeOut + g.integratorFee,
  )
})
