import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'vitest'
import { compiledContractsPath } from '../artifacts/compiledContractsPath.ts'
import { loadRouterArtifact } from './loadRouterArtifact.ts'
import { routerLegKind } from './routerLegKind.ts'
import { swapRouterAbi } from './swapRouterAbi.ts'

test('swapRouterAbi.ts equals the compiled artifact (regenerate: node --import tsx src/router/writeSwapRouterAbi.ts)', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(swapRouterAbi)), loadRouterArtifact().abi)
})

test('every leg kind number in TypeScript matches RouterTypes.sol, and every spec LegData kind has one', () => {
  const source = readFileSync(join(compiledContractsPath().root, 'contracts', 'router', 'RouterTypes.sol'), 'utf8')
  const solidity = Object.fromEntries(
    [...source.matchAll(/uint8 constant LEG_(\w+) = (\d+);/g)].map((m) => [m[1].toLowerCase(), Number(m[2])]),
  )
  for (const [name, kind] of Object.entries(solidity)) assert.equal(routerLegKind[name as keyof typeof routerLegKind], kind, name)
  const specKinds = [
    'v2_direct',
    'v3_direct',
    'pancake_v3_direct',
    'algebra_direct',
    'hydrex',
    'univ4',
    'curve',
    'prop_amm',
    'dodo_v2',
    'woofi',
    'univ2',
    'univ3',
    'aerodrome_v2',
    'pancake_infinity_cl',
    'balancer_vault',
    'maverick_v2',
  ]
  const reserved: string[] = []
  assert.deepEqual(Object.keys(routerLegKind).sort(), specKinds.sort())
  assert.equal(new Set(Object.values(routerLegKind)).size, specKinds.length)
  assert.deepEqual(Object.keys(solidity).sort(), specKinds.filter((k) => !reserved.includes(k)).sort())
})
