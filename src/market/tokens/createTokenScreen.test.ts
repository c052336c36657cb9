import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { devnetTestChain } from '../../../test/fixtures/devnetTestChain.ts'
import { type Abi, type Address, createPublicClient, type Hex, hexToBytes, http, parseAbi } from 'viem'
import { pancakeInfinityCl } from '../../adapters/pancakeInfinityCl.ts'
import { pancakeInfinityPoolId } from '../../adapters/poolKeys/pancakeInfinityPoolId.ts'
import { pancakeInfinityPoolKey } from '../../adapters/poolKeys/pancakeInfinityPoolKey.ts'
import type { PoolSnapshot } from '../../adapters/PoolAdapter.ts'
import { loadSolver } from '../../../bindings/index.ts'
import type { Solver } from '../../../bindings/types.ts'
import type { ChainConfig } from '../../chains/ChainConfig.ts'
import { createUniswapV2Pair } from '../../devnet/createUniswapV2Pair.ts'
import { createUniswapV3Pool } from '../../devnet/createUniswapV3Pool.ts'
import { deployContractAndWait } from '../../devnet/deployContractAndWait.ts'
import { deployPancakeInfinity } from '../../devnet/deployPancakeInfinity.ts'
import { loadContractArtifacts } from '../../artifacts/loadContractArtifacts.ts'
import { loadStandInArtifacts } from '../../devnet/loadStandInArtifacts.ts'
import { deployTestToken } from '../../devnet/deployTestToken.ts'
import { deployUniswapV2 } from '../../devnet/deployUniswapV2.ts'
import { deployUniswapV3 } from '../../devnet/deployUniswapV3.ts'
import { startDevnet } from '../../devnet/startDevnet.ts'
import { useDevnet } from '../../../test/fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../devnet/writeContractAndWait.ts'
import { type CreateMarketStateParameters, createMarketState } from '../createMarketState.ts'
import type { MarketStore } from '../store/MarketStore.ts'
import { createMemoryMarketStore } from '../store/createMemoryMarketStore.ts'
import { createSqliteMarketStore } from '../store/createSqliteMarketStore.ts'
import { createTokenScreen } from './createTokenScreen.ts'
import { judgeTokenBehaviour } from './judgeTokenBehaviour.ts'
import { startRpcProxy } from '../../../test/fixtures/startRpcProxy.ts'
import { firstDeployment } from '../../chains/chainDeployments.ts'

const erc20 = parseAbi([
  'function mint(address, uint256)',
  'function transfer(address, uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
])
const pairAbi = parseAbi(['function mint(address) returns (uint256)'])
const Q96 = 2n ** 96n
const WALLET: Address = '0x000000000000000000000000000000000000a11c'

const devnet = useDevnet()
let solver: Solver
let chain: ChainConfig
let hub: Address
let plain: Address
let taxed: Address
let rebasing: Address
const pools = {} as Record<'plainPair' | 'taxedPair' | 'taxedV3' | 'rebasingPair', Address>
const dbPath = join(mkdtempSync(join(tmpdir(), 'token-screen-')), 'market.sqlite')

beforeAll(async () => {
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
  chain = devnetTestChain({ devnet, weth: hub, deployments: { UNIV2: v2, UNIV3: v3 } })
  solver = await loadSolver({ nativeToken: hub })
})
afterAll(async () => {
  await solver?.close()
})

const head = () => devnet.publicClient.getBlockNumber()
const write = (address: Address, abi: Abi | readonly unknown[], functionName: string, args: readonly unknown[]) =>
  writeContractAndWait({ devnet, address, abi, functionName, args })
/** The market over this chain, its log lines kept in `lines`. */
const marketOn = (store: MarketStore, lines: string[], options: Partial<CreateMarketStateParameters> = {}) =>
  createMarketState({
    client: devnet.publicClient,
    chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    store,
    log: (line) => lines.push(line),
    ...options,
  })
/** A V2 pair's snapshot as the screen sees it: its holder and tokens (the state is not read). */
const snapshot = (pool: Address, token: Address) =>
  ({
    ref: { id: pool.toLowerCase(), dex: 'UNIV2', emitter: pool.toLowerCase() },
    input: { tokens: [hub, token] },
  }) as unknown as PoolSnapshot
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
  const market = marketOn(store, lines)
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
  const restarted = marketOn(reopened, restartLines)
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
  const market = marketOn(store, lines, { minLiquidityWei: 10n ** 30n }) // deeper than every pool here (1e24 of the hub token each)
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
    const reasons = await screen.screen(
      [snapshot(pools.taxedPair, taxed), snapshot(pools.rebasingPair, rebasing)],
      await loaded.publicClient.getBlockNumber(),
    )
    assert.match(reasons.get(pools.taxedPair.toLowerCase())?.reason ?? '', /moves other amounts than asked/)
    assert.equal(reasons.has(pools.rebasingPair.toLowerCase()), false, 'the rebase is invisible without past state (a stated limit)')
    assert.ok(
      lines.some((line) =>
        /did not serve state at block .*rebasing is not checked \(transfers are\) until block \d+, when the full 1800 blocks are tried again/.test(
          line,
        ),
      ),
      lines.join('\n'),
    )
    // Reported, not silent: the plain verdict says what it did not check, and is counted.
    const verdict = screen.verdicts().get(rebasing.toLowerCase())
    assert.equal(verdict?.kind, 'plain')
    assert.match((verdict as { unchecked?: string }).unchecked ?? '', /^rebasing not checked: .*did not serve state at block/)
    assert.deepEqual(screen.status(), { judged: 2, leftOut: 1, partlyChecked: 1, unjudged: 0 })
  } finally {
    await loaded.stop()
  }
})

test('a PancakeSwap Infinity pool: its tokens are probed at the Vault, which holds them (the pool manager holds none)', async () => {
  const infinity = await deployPancakeInfinity({ devnet })
  const { CLPoolManager } = loadStandInArtifacts({ protocol: 'pancake-infinity' })
  const { InfinityTestRouter } = loadContractArtifacts()
  const key = pancakeInfinityPoolKey({ tokenA: hub, tokenB: taxed, poolManager: infinity.clPoolManager, fee: 2500, tickSpacing: 50 })
  await write(infinity.clPoolManager, CLPoolManager.abi, 'initialize', [key, Q96])
  for (const token of [hub, taxed])
    await write(token, parseAbi(['function approve(address, uint256)']), 'approve', [infinity.testRouter, 2n ** 255n])
  await write(infinity.testRouter, InfinityTestRouter.abi, 'modifyLiquidity', [
    key,
    { tickLower: -6000, tickUpper: 6000, liquidityDelta: 10n ** 22n, salt: `0x${'00'.repeat(32)}` },
  ])
  // The tax applies to transfers into and out of the Vault, as a launch taxes its Infinity pool.
  await write(taxed, devnet.artifacts.TaxedToken.abi as Abi, 'setPool', [infinity.vault, true])
  const blockNumber = await head()
  const id = pancakeInfinityPoolId({ key })
  const ref = { id, dex: 'PANCAKE_INFINITY_CL' as const, emitter: infinity.clPoolManager.toLowerCase() as Address }
  const snapshot = await pancakeInfinityCl.readPool({
    client: devnet.publicClient,
    ref,
    blockNumber,
    nextBlock: { number: blockNumber + 1n, timestamp: 0n },
  })
  assert.equal(snapshot.ref.holder, infinity.vault.toLowerCase(), 'the read names the Vault as the holder')
  const screenOf = () =>
    createTokenScreen({
      client: devnet.publicClient,
      store: createMemoryMarketStore({ chainId: chain.chainId }),
      trusted: [hub],
      maxBlockRange: 2000n,
      log: () => undefined,
    })
  const out = await screenOf().screen([snapshot], blockNumber)
  assert.match(
    out.get(id)?.reason ?? '',
    new RegExp(`token ${taxed.toLowerCase()} moves other amounts than asked .* out of ${infinity.vault.toLowerCase()} `, 'i'),
  )
  // Probed at the manager instead (the emitter, as before), the manager holds none: no verdict, routed.
  const atManager = screenOf()
  assert.equal((await atManager.screen([{ ...snapshot, ref: { ...snapshot.ref, holder: undefined } }], blockNumber)).size, 0)
  assert.equal(atManager.verdicts().has(taxed.toLowerCase()), false)
})

test('a node that refuses state overrides: each token is reported and routed unjudged, counted, and asked again later (screening is not off for later tokens)', async () => {
  const proxy = await startRpcProxy({ target: devnet.anvil.url })
  try {
    const client = createPublicClient({ chain: devnet.chain, transport: http(proxy.url, { retryCount: 0 }) })
    const lines: string[] = []
    const screen = createTokenScreen({
      client,
      store: createMemoryMarketStore({ chainId: chain.chainId }),
      trusted: [hub],
      maxBlockRange: 2000n,
      retryAfterBlocks: 3n,
      log: (line) => lines.push(line),
    })
    const both = [snapshot(pools.plainPair, plain), snapshot(pools.taxedPair, taxed)]
    proxy.refuseStateOverrides(true)
    const at = await head()
    assert.equal((await screen.screen(both, at)).size, 0, 'unjudged tokens are routed')
    for (const token of [plain, taxed])
      assert.ok(
        lines.some(
          (line) =>
            line.includes(`the node refused the check of ${token.toLowerCase()} (`) &&
            line.includes('state override is not supported') &&
            line.endsWith(`asked again at block ${at + 3n}`),
        ),
        lines.join('\n'),
      )
    assert.deepEqual(screen.status(), { judged: 0, leftOut: 0, partlyChecked: 0, unjudged: 2 })
    // Not asked again before the retry block, even once the node takes overrides.
    proxy.refuseStateOverrides(false)
    const probesBefore = proxy.calls.get('eth_call') ?? 0
    assert.equal((await screen.screen(both, at + 1n)).size, 0)
    assert.equal(proxy.calls.get('eth_call') ?? 0, probesBefore, 'no probe before the retry block')
    await devnet.testClient.mine({ blocks: 3 })
    const out = await screen.screen(both, await head())
    assert.match(out.get(pools.taxedPair.toLowerCase())?.reason ?? '', /moves other amounts than asked/)
    assert.deepEqual(screen.status(), { judged: 2, leftOut: 1, partlyChecked: 0, unjudged: 0 })
  } finally {
    await proxy.close()
  }
})

test('verdicts are judged again on a schedule: a tax switched on after the check leaves the pool out; switched off, the pool comes back', async () => {
  const later = await deployContractAndWait({ devnet, artifact: devnet.artifacts.TaxedToken, args: [300] })
  await write(later, erc20, 'mint', [devnet.account, 10n ** 30n])
  const { pair } = await createUniswapV2Pair({
    devnet,
    factory: firstDeployment(chain.deployments, 'UNIV2')?.source as Address,
    tokenA: hub,
    tokenB: later,
  })
  await write(hub, erc20, 'transfer', [pair, 10n ** 24n])
  await write(later, erc20, 'transfer', [pair, 10n ** 24n])
  await write(pair, pairAbi, 'mint', [devnet.account])
  const id = pair.toLowerCase()
  const lines: string[] = []
  const store = createMemoryMarketStore({ chainId: chain.chainId })
  const market = marketOn(store, lines, { tokenRecheckAfterBlocks: 5n })
  const verdictOf = () => store.tokens().find((t) => t.address === later.toLowerCase())?.verdict.kind
  try {
    await market.start()
    assert.ok(
      market.pools().some((p) => p.ref.id === id),
      'untaxed at first: routed',
    )
    assert.equal(verdictOf(), 'plain')
    // The tax starts; a swap-less Sync is the pool's next event. Before the re-check is due, it stays plain.
    await write(later, devnet.artifacts.TaxedToken.abi as Abi, 'setPool', [pair, true])
    await write(pair, parseAbi(['function sync()']), 'sync', [])
    await market.refresh()
    assert.ok(market.pools().some((p) => p.ref.id === id))
    await devnet.testClient.mine({ blocks: 5 })
    await write(pair, parseAbi(['function sync()']), 'sync', [])
    const leaving = await market.refresh()
    assert.deepEqual(leaving.removed, [id])
    assert.equal(verdictOf(), 'feeOnTransfer')
    assert.match(market.skipped().find((s) => s.id === id)?.reason ?? '', /moves other amounts than asked/)
    // The tax ends. The pool is no longer followed, yet once the verdict is due its pool is read and judged again.
    await write(later, devnet.artifacts.TaxedToken.abi as Abi, 'setPool', [pair, false])
    await devnet.testClient.mine({ blocks: 5 })
    const back = await market.refresh()
    assert.deepEqual(back.upserted, [id])
    assert.equal(verdictOf(), 'plain')
    assert.ok(
      lines.some((line) => line.startsWith(`market: token ${later.toLowerCase()} is plain again at block`)),
      lines.join('\n'),
    )
    // Followed again: its next event re-reads it.
    await write(pair, parseAbi(['function sync()']), 'sync', [])
    assert.deepEqual((await market.refresh()).changed, [id])
  } finally {
    await market.stop()
  }
})
