import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { type Abi, type Address, type Hex, hexToBytes, parseAbi } from 'viem'
import type { PoolSnapshot } from '../../adapters/PoolAdapter.ts'
import { loadSolver } from '../../../bindings/index.ts'
import type { Solver } from '../../../bindings/types.ts'
import { BASE_BLOCK_TIME_SEC } from '../../chains/base.ts'
import type { ChainConfig } from '../../chains/ChainConfig.ts'
import { createUniswapV2Pair } from '../../devnet/createUniswapV2Pair.ts'
import { createUniswapV3Pool } from '../../devnet/createUniswapV3Pool.ts'
import { deployContractAndWait } from '../../devnet/deployContractAndWait.ts'
import { deployTestToken } from '../../devnet/deployTestToken.ts'
import { deployUniswapV2 } from '../../devnet/deployUniswapV2.ts'
import { deployUniswapV3 } from '../../devnet/deployUniswapV3.ts'
import { type Devnet, startDevnet } from '../../devnet/startDevnet.ts'
import { writeContractAndWait } from '../../devnet/writeContractAndWait.ts'
import { createMarketState } from '../createMarketState.ts'
import { createMemoryMarketStore } from '../store/createMemoryMarketStore.ts'
import { createSqliteMarketStore } from '../store/createSqliteMarketStore.ts'
import { createTokenScreen } from './createTokenScreen.ts'
import { judgeTokenBehaviour } from './judgeTokenBehaviour.ts'

const erc20 = parseAbi([
  'function mint(address, uint256)',
  'function transfer(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
])
const pairAbi = parseAbi(['function mint(address) returns (uint256)'])
const Q96 = 2n ** 96n
const WALLET: Address = '0x000000000000000000000000000000000000a11c'

let devnet: Devnet
let solver: Solver
let chain: ChainConfig
let hub: Address
let plain: Address
let taxed: Address
let rebasing: Address
const pools = {} as Record<'plainPair' | 'taxedPair' | 'taxedV3' | 'rebasingPair', Address>
const dbPath = join(mkdtempSync(join(tmpdir(), 'token-screen-')), 'market.sqlite')

beforeAll(async () => {
  devnet = await startDevnet({})
  const write = (address: Address, abi: Abi | readonly unknown[], functionName: string, args: readonly unknown[]) =>
    writeContractAndWait({ devnet, address, abi, functionName, args })
  hub = await deployTestToken({ devnet, name: 'Hub', symbol: 'HUB', decimals: 18 })
  plain = await deployTestToken({ devnet, name: 'Plain', symbol: 'PLN', decimals: 18 })
  taxed = await deployContractAndWait({ devnet, artifact: devnet.artifacts.TaxedToken, args: [300] }) // 3 % on buys and sells
  rebasing = await deployContractAndWait({ devnet, artifact: devnet.artifacts.RebasingToken })
  const harness = await deployContractAndWait({ devnet, artifact: devnet.artifacts.PoolHarness })
  for (const token of [hub, plain, taxed, rebasing]) {
    await write(token, erc20, 'mint', [devnet.account, 10n ** 30n])
    await write(token, erc20, 'mint', [harness, 10n ** 30n])
  }
  const { factory: v2 } = await deployUniswapV2({ devnet })
  const pair = async (token: Address) => {
    const { pair: address } = await createUniswapV2Pair({ devnet, factory: v2, tokenA: hub, tokenB: token })
    await write(hub, erc20, 'transfer', [address, 10n ** 24n])
    await write(token, erc20, 'transfer', [address, 2n * 10n ** 24n])
    await write(address, pairAbi, 'mint', [devnet.account])
    return address
  }
  pools.plainPair = await pair(plain)
  pools.taxedPair = await pair(taxed)
  pools.rebasingPair = await pair(rebasing)
  const { factory: v3 } = await deployUniswapV3({ devnet })
  const { pool } = await createUniswapV3Pool({ devnet, factory: v3, tokenA: hub, tokenB: taxed, fee: 3000, sqrtPriceX96: Q96 })
  pools.taxedV3 = pool
  await write(harness, devnet.artifacts.PoolHarness.abi as Abi, 'mintV3', [pool, devnet.account, -6000, 6000, 10n ** 22n, harness])
  // The launch's tax starts once its pools are funded (a V3 mint pays exact amounts: it would refuse the tax).
  for (const taxedPool of [pools.taxedPair, pools.taxedV3])
    await write(taxed, devnet.artifacts.TaxedToken.abi as Abi, 'setPool', [taxedPool, true])
  await write(taxed, erc20, 'transfer', [WALLET, 10n ** 21n]) // a wallet holding the taxed token: its transfers are free
  // Every balance of the rebasing token grows 10 %, the pair's included, with no Transfer event.
  await write(rebasing, devnet.artifacts.RebasingToken.abi as Abi, 'rebase', [11n, 10n])
  chain = {
    name: 'devnet',
    chainId: devnet.chain.id,
    blockTimeSec: BASE_BLOCK_TIME_SEC,
    weth: hub,
    multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
    deployments: { UNIV2: { source: v2, fromBlock: 0n }, UNIV3: { source: v3, fromBlock: 0n } },
    pools: [],
  }
  solver = await loadSolver({ nativeToken: hub })
})
afterAll(async () => {
  await solver?.close()
  await devnet?.stop()
})

const head = () => devnet.publicClient.getBlockNumber()
const judge = async (token: Address, holder: Address) =>
  judgeTokenBehaviour({ client: devnet.publicClient, token, holder, blockNumber: await head(), windowBlocks: 1800n, maxBlockRange: 2000n })

test('a plain token: the simulated transfer out of its pool and back moves exactly the amount, and its balance moved only by Transfers', async () => {
  assert.deepEqual(await judge(plain, pools.plainPair), { kind: 'plain' })
})

test('the taxed token: plain between wallets, a fee on transfer out of its pools (V2 pair and V3 pool)', async () => {
  // Why the probe sends from the pool itself: a transfer between two wallets pays no tax.
  assert.deepEqual(await judge(taxed, WALLET), { kind: 'plain' })
  for (const pool of [pools.taxedPair, pools.taxedV3]) {
    const verdict = await judge(taxed, pool)
    assert.equal(verdict?.kind, 'feeOnTransfer', `${pool}: ${JSON.stringify(verdict)}`)
    const balance = (await devnet.publicClient.readContract({
      address: taxed,
      abi: erc20,
      functionName: 'balanceOf',
      args: [pool],
    })) as bigint
    const amount = balance / 100n
    const delivered = amount - (amount * 300n) / 10_000n
    assert.match(
      (verdict as { reason: string }).reason,
      new RegExp(`sending ${amount} out of ${pool} took ${amount} and delivered ${delivered}`, 'i'),
    )
  }
})

test("the rebasing token: its transfers are exact, but the pair's balance grew without a Transfer", async () => {
  const verdict = await judge(rebasing, pools.rebasingPair)
  assert.equal(verdict?.kind, 'rebasing', JSON.stringify(verdict))
  // 2e24 transferred in, then about +10 % by the rebase: the reason names both figures.
  const held = (await devnet.publicClient.readContract({
    address: rebasing,
    abi: erc20,
    functionName: 'balanceOf',
    args: [pools.rebasingPair],
  })) as bigint
  assert.ok(held > 2_199_999n * 10n ** 18n && held < 2_200_001n * 10n ** 18n, `${held}`)
  const reason = (verdict as { reason: string }).reason
  assert.match(
    reason,
    new RegExp(` and ${held} at block \\d+, a change of ${held}, while its Transfers in between net 2000000000000000000000000`),
  )
  // With a window that starts after the rebase, the balance moved by nothing: it reads plain (the method's limit).
  await devnet.testClient.mine({ blocks: 1 })
  assert.deepEqual(
    await judgeTokenBehaviour({
      client: devnet.publicClient,
      token: rebasing,
      holder: pools.rebasingPair,
      blockNumber: await head(),
      windowBlocks: 1n,
      maxBlockRange: 2000n,
    }),
    { kind: 'plain' },
  )
})

test('an empty holder: nothing to probe with, no verdict (judged again when the pool is next read)', async () => {
  assert.equal(await judge(taxed, '0x000000000000000000000000000000000000e0e0'), undefined)
})

test('discovery leaves out the pools of the fee-on-transfer and rebasing tokens, listed with the reason, stops following them, and a restart does not probe again', async () => {
  const lines: string[] = []
  const store = createSqliteMarketStore({ path: dbPath, chainId: chain.chainId })
  const market = createMarketState({
    client: devnet.publicClient,
    chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    store,
    log: (line) => lines.push(line),
  })
  try {
    const report = await market.start()
    const l = (a: Address) => a.toLowerCase()
    assert.deepEqual(report.upserted, [l(pools.plainPair)])
    const skipped = new Map(market.skipped().map((s) => [s.id, s.reason]))
    assert.deepEqual([...skipped.keys()].sort(), [pools.taxedPair, pools.taxedV3, pools.rebasingPair].map(l).sort())
    for (const pool of [pools.taxedPair, pools.taxedV3])
      assert.match(
        skipped.get(l(pool)) ?? '',
        new RegExp(`token ${l(taxed)} moves other amounts than asked \\(fee on transfer or rounding\\)`),
      )
    assert.match(
      skipped.get(l(pools.rebasingPair)) ?? '',
      new RegExp(`token ${l(rebasing)} changes balances without Transfer events \\(rebasing or interest-bearing\\)`),
    )
    assert.equal(market.followed(), 1, 'only the plain pair is still followed')
    assert.equal(lines.filter((line) => line.startsWith('market: token ')).length, 2, lines.join('\n'))
    const verdicts = new Map(store.tokens().map((t) => [t.address, t.verdict.kind]))
    assert.deepEqual(Object.fromEntries(verdicts), { [l(plain)]: 'plain', [l(taxed)]: 'feeOnTransfer', [l(rebasing)]: 'rebasing' })
  } finally {
    await market.stop()
    store.close()
  }
  const restartLines: string[] = []
  const reopened = createSqliteMarketStore({ path: dbPath, chainId: chain.chainId })
  const restarted = createMarketState({
    client: devnet.publicClient,
    chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    store: reopened,
    log: (line) => restartLines.push(line),
  })
  try {
    await restarted.start()
    assert.equal(restarted.skipped().length, 3)
    assert.equal(restartLines.filter((line) => line.startsWith('market: token ')).length, 0, 'verdicts come from the store, no probe')
  } finally {
    await restarted.stop()
    reopened.close()
  }
})

test('pools below the liquidity floor are left out before their tokens are screened: no probe, still followed', async () => {
  const store = createMemoryMarketStore({ chainId: chain.chainId })
  const lines: string[] = []
  const market = createMarketState({
    client: devnet.publicClient,
    chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    store,
    minLiquidityWei: 10n ** 30n, // deeper than every pool here (1e24 of the hub token each)
    log: (line) => lines.push(line),
  })
  try {
    const report = await market.start()
    assert.deepEqual(report.upserted, [])
    const reasons = market.skipped().map((s) => s.reason)
    assert.equal(reasons.length, 4)
    for (const reason of reasons) assert.match(reason, /below the floor/, 'left out for their depth, not their tokens')
    assert.deepEqual(store.tokens(), [], 'no token was probed')
    assert.equal(lines.filter((line) => line.startsWith('market: token ')).length, 0)
    assert.equal(market.followed(), 4, 'shallow pools stay followed: liquidity added later brings them in, screened then')
  } finally {
    await market.stop()
  }
})

test('a node that serves no past state (anvil started from a dump): transfers are still judged, rebasing is not, and the log says so', async () => {
  const dump = hexToBytes((await devnet.publicClient.request({ method: 'anvil_dumpState' as never, params: [] as never })) as Hex)
  const statePath = join(mkdtempSync(join(tmpdir(), 'token-screen-dump-')), 'state.json')
  writeFileSync(statePath, dump[0] === 0x1f && dump[1] === 0x8b ? gunzipSync(dump) : dump)
  const loaded = await startDevnet({ loadStatePath: statePath })
  try {
    const lines: string[] = []
    const screen = createTokenScreen({
      client: loaded.publicClient,
      store: createMemoryMarketStore({ chainId: chain.chainId }),
      trusted: [hub],
      maxBlockRange: 2000n,
      log: (line) => lines.push(line),
    })
    const snapshot = (pool: Address, token: Address) =>
      ({ ref: { id: pool.toLowerCase(), dex: 'UNIV2', emitter: pool }, input: { tokens: [hub, token] } }) as unknown as PoolSnapshot
    const reasons = await screen.screen(
      [snapshot(pools.taxedPair, taxed), snapshot(pools.rebasingPair, rebasing)],
      await loaded.publicClient.getBlockNumber(),
    )
    assert.match(reasons.get(pools.taxedPair.toLowerCase()) ?? '', /moves other amounts than asked/)
    assert.equal(reasons.has(pools.rebasingPair.toLowerCase()), false, 'the rebase is invisible without past state (a stated limit)')
    assert.ok(
      lines.some((line) => /did not serve state at block .*rebasing is not checked \(transfers are\)/.test(line)),
      lines.join('\n'),
    )
  } finally {
    await loaded.stop()
  }
})
