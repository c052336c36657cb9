import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { devnetTestChain } from '../../test/fixtures/devnetTestChain.ts'
import { type Address, parseAbi } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import type { ChainConfig } from '../chains/ChainConfig.ts'
import { createUniswapV2Pair } from '../devnet/createUniswapV2Pair.ts'
import { deployTestToken } from '../devnet/deployTestToken.ts'
import { deployUniswapV2 } from '../devnet/deployUniswapV2.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from '../devnet/writeContractAndWait.ts'
import { createMarketState } from './createMarketState.ts'
import { createSqliteMarketStore } from './store/createSqliteMarketStore.ts'

// Dust is left out before it costs reads: a pool below the liquidity floor at its last read is
// stored with its depth, and a restart reads only the stored pools that are deep, or that have a
// log since (one eth_getLogs over the pools for the blocks in between), not every dust pool.

const erc20 = parseAbi(['function mint(address, uint256)', 'function transfer(address, uint256) returns (bool)'])
const pairAbi = parseAbi(['function mint(address) returns (uint256)'])
const E18 = 10n ** 18n
const FLOOR = E18 // 1 WETH: the deep pair holds 1,000,000, the dust ones 0.001

const devnet = useDevnet()
let solver: Solver
let chain: ChainConfig
let hub: Address
let deep: Address
const dust: Address[] = []
/** Each dust pair's other token (besides the hub). */
const tokenOf = new Map<Address, Address>()
const dbPath = join(mkdtempSync(join(tmpdir(), 'shallow-restart-')), 'market.sqlite')

const fund = async (pair: Address, tokenA: Address, tokenB: Address, amount: bigint) => {
  const write = (address: Address, abi: typeof erc20 | typeof pairAbi, functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address, abi, functionName, args })
  await write(tokenA, erc20, 'transfer', [pair, amount])
  await write(tokenB, erc20, 'transfer', [pair, amount])
  await write(pair, pairAbi, 'mint', [devnet.account])
}

beforeAll(async () => {
  hub = await deployTestToken({ devnet, name: 'Hub', symbol: 'HUB', decimals: 18 })
  const { factory } = await deployUniswapV2({ devnet })
  const tokens: Address[] = []
  for (let i = 0; i < 4; i++) tokens.push(await deployTestToken({ devnet, name: `T${i}`, symbol: `T${i}`, decimals: 18 }))
  for (const token of [hub, ...tokens])
    await writeContractAndWait({ devnet, address: token, abi: erc20, functionName: 'mint', args: [devnet.account, 10n ** 30n] })
  const pairOf = async (token: Address, amount: bigint) => {
    const { pair } = await createUniswapV2Pair({ devnet, factory, tokenA: hub, tokenB: token })
    await fund(pair, hub, token, amount)
    return pair.toLowerCase() as Address
  }
  deep = await pairOf(tokens[0], 1_000_000n * E18)
  for (const token of tokens.slice(1)) {
    const pair = await pairOf(token, E18 / 1000n)
    dust.push(pair)
    tokenOf.set(pair, token)
  }
  chain = devnetTestChain({ devnet, weth: hub, deployments: { UNIV2: factory } })
  solver = await loadSolver({ nativeToken: hub })
}, 120_000)
afterAll(async () => {
  await solver?.close()
})

const startMarket = async (minLiquidityWei: bigint) => {
  const store = createSqliteMarketStore({ path: dbPath, chainId: chain.chainId })
  const lines: string[] = []
  const market = createMarketState({
    client: devnet.publicClient,
    chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    store,
    minLiquidityWei,
    log: (line) => lines.push(line),
  })
  const report = await market.start()
  return { market, store, report, lines, close: async () => (await market.stop(), store.close()) }
}

test('the first start reads every pool and stores the depth of those below the floor; a restart reads only the deep pool and the dust pool with a log since', async () => {
  const first = await startMarket(FLOOR)
  try {
    assert.deepEqual(first.report.upserted, [deep])
    assert.deepEqual(first.report.reread, [deep, ...dust].sort())
    const stored = first.store.shallow()
    assert.deepEqual(stored.map((d) => d.id).sort(), [...dust].sort())
    for (const d of stored) assert.ok(d.depthWei !== null && d.depthWei < FLOOR && d.depthWei > 0n, `${d.id}: ${d.depthWei}`)
  } finally {
    await first.close()
  }

  // While the service is down, one dust pair is filled above the floor (its Mint and Sync logs).
  const [filled, ...quiet] = dust
  await fund(filled, hub, tokenOf.get(filled) as Address, 10n * E18)
  await devnet.testClient.mine({ blocks: 10 })

  const second = await startMarket(FLOOR)
  try {
    assert.deepEqual(second.report.reread, [deep, filled].sort(), 'the quiet dust pools are not read')
    assert.deepEqual(second.report.upserted, [deep, filled].sort())
    const skipped = new Map(second.market.skipped().map((s) => [s.id, s.reason]))
    for (const id of quiet)
      assert.match(
        skipped.get(id) ?? '',
        /below the floor of 1000000000000000000 \(not read at this start: no log of it since; its next event reads it\)/,
      )
    assert.ok(
      second.lines.includes(
        `market: ${quiet.length} pools stored below the floor have no log since their last read: not read at this start`,
      ),
    )
    assert.deepEqual(
      second.store
        .shallow()
        .map((d) => d.id)
        .sort(),
      [...quiet].sort(),
      'the filled pool is no longer stored as shallow',
    )
    assert.equal(second.market.followed(), 1 + dust.length, 'the unread dust pools are still followed')
    // Their next event reads them.
    await fund(quiet[0], hub, tokenOf.get(quiet[0]) as Address, 10n * E18)
    const step = await second.market.refresh()
    assert.deepEqual(step.upserted, [quiet[0]])
  } finally {
    await second.close()
  }

  // A lower floor than the stored depths: they are read again.
  const third = await startMarket(1n)
  try {
    assert.deepEqual(third.report.reread, [deep, ...dust].sort())
  } finally {
    await third.close()
  }
})
