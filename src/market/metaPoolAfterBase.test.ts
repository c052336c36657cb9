import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, encodeDeployData, parseAbi } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { devnetTestChain } from '../../test/fixtures/devnetTestChain.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { createCurvePlainPool } from '../devnet/createCurvePlainPool.ts'
import { deployCurveStableSwap } from '../devnet/deployCurveStableSwap.ts'
import { deployTestToken } from '../devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../devnet/loadStandInArtifacts.ts'
import { writeContractAndWait } from '../devnet/writeContractAndWait.ts'
import { createMarketState, type MarketState } from './createMarketState.ts'

// A Curve meta pool discovered after its base pool is on the market: the solver takes the live
// base pool off (one venue per shared state, solver-rs/src/market/mod.rs), and the market's own
// list must follow: the base pool is reported removed, counted among the skipped pools with the
// solver's reason, and no longer encodes a leg; the meta venue does.

const erc20 = parseAbi(['function mint(address, uint256)', 'function approve(address, uint256) returns (bool)'])
const poolAbi = parseAbi([
  'function add_liquidity(uint256[2] amounts, uint256 min) returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function approve(address, uint256) returns (bool)',
])
const factoryAbi = parseAbi([
  'function deploy_pool(bytes initCode, address[] coins, uint256 A, uint256 fee) returns (address)',
  'function pool_count() view returns (uint256)',
  'function pool_list(uint256) view returns (address)',
])
const devnet = useDevnet()
let solver: Solver
let market: MarketState
let factory: Address
let base: Address
const coins: Record<'usdbc' | 'dai' | 'usdc', { address: Address; decimals: number }> = {} as never
const lines: string[] = []
const USD6 = 10n ** 6n
const USD18 = 10n ** 18n
const write = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
  writeContractAndWait({ devnet, address, abi, functionName, args })

beforeAll(async () => {
  for (const [name, decimals] of [
    ['usdbc', 6],
    ['dai', 18],
    ['usdc', 6],
  ] as const) {
    const address = await deployTestToken({ devnet, name, symbol: name.toUpperCase(), decimals })
    await write(address, erc20, 'mint', [devnet.account, 10n ** 30n])
    coins[name] = { address, decimals }
  }
  ;({ factory } = await deployCurveStableSwap({ devnet }))
  ;({ pool: base } = await createCurvePlainPool({ devnet, factory, coins: [coins.usdbc, coins.dai], A: 100n, fee: 4_000_000n }))
  const amounts = [1_000_000n * USD6, 1_000_000n * USD18]
  for (const coin of [coins.usdbc, coins.dai]) await write(coin.address, erc20, 'approve', [base, 10n ** 30n])
  await write(base, poolAbi, 'add_liquidity', [amounts, 0n])
  // The base pool configured, the factory a registry: the meta pool it deploys later is listed from it.
  const chain = { ...devnetTestChain({ devnet, weth: coins.dai.address, deployments: { CURVE: factory } }) }
  chain.deployments = { CURVE: { source: factory, registry: true } }
  chain.pools = [{ dex: 'CURVE', address: base }]
  solver = await loadSolver({ nativeToken: coins.dai.address })
  market = createMarketState({ client: devnet.publicClient, chain, solver, maxSnapshotAgeMs: 60_000, log: (line) => lines.push(line) })
}, 120_000)
afterAll(async () => {
  await market?.stop()
  await solver?.close()
})

test('a meta pool arriving after its base pool: the base pool leaves the market, is counted as skipped with the reason, and encodes no leg', async () => {
  const baseId = base.toLowerCase()
  const start = await market.start()
  assert.deepEqual(start.upserted, [baseId])
  assert.deepEqual(market.skipped(), [])

  // The meta pool: USDC against the base LP token, deployed through the factory (its
  // PlainPoolDeployed log makes the market list the factory's registry), still empty: its deployment
  // leaves no log of the base pool, so the base pool is not re-read in the refresh that brings it.
  const { CurveMetaPool } = loadStandInArtifacts({ protocol: 'curve' })
  const initCode = encodeDeployData({
    abi: CurveMetaPool.abi as Abi,
    bytecode: CurveMetaPool.bytecode,
    args: [factory, coins.usdc.address, coins.usdc.decimals, base, 200n, 4_000_000n, false],
  })
  const receipt = await write(factory, factoryAbi, 'deploy_pool', [initCode, [coins.usdc.address, base], 200n, 4_000_000n])
  const read = (functionName: 'pool_count' | 'pool_list', args: readonly bigint[] = []) =>
    devnet.publicClient.readContract({
      address: factory,
      abi: factoryAbi,
      functionName,
      args: args as never,
      blockNumber: receipt.blockNumber,
    })
  const meta = (await read('pool_list', [((await read('pool_count')) as bigint) - 1n])) as Address
  const metaId = meta.toLowerCase()

  const step = await market.refresh()
  assert.deepEqual(step.reread, [metaId], 'the base pool has no log in these blocks')
  assert.deepEqual(step.upserted, [metaId])
  assert.deepEqual(step.removed, [baseId], 'the base pool the solver took off leaves the market’s list')
  assert.equal(step.skipped.length, 1)
  assert.equal(step.skipped[0].id, baseId)
  assert.match(step.skipped[0].reason, new RegExp(`solver refused it: its state is held inside venue ${metaId}`))
  const skipped = market.skipped()
  assert.deepEqual(
    skipped.map((s) => s.id),
    [baseId],
  )
  assert.match(skipped[0].reason, /^left out at block \d+: solver refused it: its state is held inside venue/)
  assert.ok(lines.some((line) => line.startsWith(`market: skip CURVE pool ${baseId}: left out at block`)))
  assert.ok(!market.pools().some((p) => p.ref.id === baseId))
  assert.throws(() => market.encodeLeg(baseId, { tokenIn: coins.usdbc.address, tokenOut: coins.dai.address }), /not in the market/)
  assert.deepEqual(market.encodeLeg(metaId, { tokenIn: coins.usdbc.address, tokenOut: coins.dai.address }), {
    kind: 'curve',
    pool: meta,
    i: 1,
    j: 2,
    underlying: true,
  })

  // Funding the meta pool moves the base pool's LP token (the base pool itself): both are re-read,
  // and the base pool's own input is refused beside the meta venue.
  const metaAmounts = [500_000n * USD6, 500_000n * USD18]
  await write(coins.usdc.address, erc20, 'approve', [meta, metaAmounts[0]])
  await write(base, poolAbi, 'approve', [meta, metaAmounts[1]])
  await write(meta, poolAbi, 'add_liquidity', [metaAmounts, 0n])
  const funded = await market.refresh()
  assert.deepEqual(funded.reread, [baseId, metaId].sort())
  assert.deepEqual(funded.upserted, [metaId])
  assert.deepEqual(funded.removed, [])

  // A trade on the base pool alone re-reads it: the solver still refuses it beside the meta venue.
  await write(base, poolAbi, 'add_liquidity', [[1_000n * USD6, 0n], 0n])
  const next = await market.refresh()
  assert.ok(!next.upserted.includes(baseId))
  assert.deepEqual(
    market.skipped().map((s) => s.id),
    [baseId],
  )
}, 120_000)

test('a registry source that does not answer as one (a token, not a factory) is reported among the skipped; the market starts', async () => {
  const chain = { ...devnetTestChain({ devnet, weth: coins.dai.address, deployments: {} }) }
  chain.deployments = {
    CURVE: [
      { source: factory, registry: true },
      { source: coins.usdc.address, registry: true },
    ],
  }
  const other = createMarketState({ client: devnet.publicClient, chain, solver, maxSnapshotAgeMs: 60_000, log: () => {} })
  try {
    const start = await other.start()
    assert.ok(start.upserted.length > 0, 'the factory that answers is listed')
    const skipped = other.skipped().find((s) => s.id === coins.usdc.address.toLowerCase())
    assert.ok(skipped, JSON.stringify(other.skipped()))
    assert.match(skipped.reason, /^registry not listed: /)
  } finally {
    await other.stop()
  }
}, 60_000)
