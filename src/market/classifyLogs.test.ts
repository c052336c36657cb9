import assert from 'node:assert/strict'
import { test } from 'vitest'
import { type Address, encodeAbiParameters, encodeEventTopics, type Hex, type Log } from 'viem'
import { curveRegistryEvents } from '../adapters/curveRegistry.ts'
import { curveKinds } from '../adapters/curveKinds.ts'
import type { PoolAdapter } from '../adapters/PoolAdapter.ts'
import { classifyLogs } from './classifyLogs.ts'

const factory = '0xd2002373543ce3527023c75e7518c274a51ce712' as Address
const coin = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const log = (address: Address, topics: Hex[], data: Hex): Log => ({ address, topics, data, blockNumber: 7n }) as unknown as Log

test("a Curve StableSwap factory's deploy events (NG, legacy, meta) name no pool: each says its registry grew", () => {
  const [ng, legacy, meta] = curveRegistryEvents
  const logs = [
    log(
      factory,
      encodeEventTopics({ abi: [ng], eventName: 'PlainPoolDeployed' }) as Hex[],
      encodeAbiParameters(ng.inputs, [[coin(1), coin(2)], 200n, 1_000_000n, coin(9)]),
    ),
    log(
      factory,
      encodeEventTopics({ abi: [legacy], eventName: 'PlainPoolDeployed' }) as Hex[],
      encodeAbiParameters(legacy.inputs, [[coin(1), coin(2), coin(0), coin(0)], 100n, 4_000_000n, coin(9)]),
    ),
    log(
      factory,
      encodeEventTopics({ abi: [meta], eventName: 'MetaPoolDeployed' }) as Hex[],
      encodeAbiParameters(meta.inputs, [coin(3), coin(4), 200n, 4_000_000n, coin(9)]),
    ),
  ]
  // Each event's topic is distinct (the legacy factory's fixed array hashes apart from NG's).
  assert.equal(new Set(logs.map((l) => l.topics[0])).size, 3)
  const classified = classifyLogs({
    logs,
    sourceAdapter: new Map<Address, PoolAdapter>([[factory, curveKinds]]),
    emitterDex: new Map(),
    adapters: new Map([['CURVE', curveKinds]]),
    isKnown: () => false,
  })
  assert.deepEqual(classified.discovered, [])
  assert.deepEqual(classified.skipped, [])
  assert.deepEqual([...classified.registriesGrown], [factory])
})
