import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, hexToBigInt } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { deploySmallMarket, type SmallMarket } from '../devnet/deploySmallMarket.ts'
import { uniswapV3 } from '../adapters/uniswapV3.ts'
import { smallMarketV3Request } from '../../test/fixtures/smallMarketV3Request.ts'
import { useDevnet } from '../../test/fixtures/useDevnet.ts'
import { createQuoteService } from '../quote/createQuoteService.ts'
import { createMarketState, type MarketState } from './createMarketState.ts'
import { MarketStaleError } from './errors.ts'

// Reorgs, made with anvil's own calls (anvil_reorg replaces the last blocks; evm_revert drops them
// and new ones are mined on the old parent): the market notices that its block left the chain,
// re-reads at the new head what the dropped blocks and the new branch changed, and no plan is
// served on a dropped block.
const devnet = useDevnet()
let sm: SmallMarket
let solver: Solver
let market: MarketState
const lines: string[] = []
/** Called with each market line as it is logged (while the step that logs it runs). */
let onLine: (line: string) => void = () => {}
const rpc = (method: string, params: unknown[] = []) => devnet.publicClient.request({ method: method as never, params: params as never })
const head = async () => hexToBigInt((await rpc('eth_blockNumber')) as `0x${string}`)
const v3 = () => sm.v3Pool.toLowerCase() as Address
/** The V3 pool as the chain holds it at `blockNumber`, read directly. */
const chainV3 = async (blockNumber: bigint) =>
  (
    await uniswapV3.readPool({
      client: devnet.publicClient,
      ref: { id: v3(), dex: 'UNIV3', emitter: v3() },
      blockNumber,
      nextBlock: { number: blockNumber + 1n, timestamp: 0n },
    })
  ).input
const marketV3 = () => market.pools().find((s) => s.ref.id === v3())?.input

beforeAll(async () => {
  sm = await deploySmallMarket({ devnet })
  solver = await loadSolver({ nativeToken: sm.chain.weth })
  market = createMarketState({
    client: devnet.publicClient,
    chain: sm.chain,
    solver,
    maxSnapshotAgeMs: 60_000,
    log: (line) => {
      lines.push(line)
      onLine(line)
    },
  })
  await market.start()
})
afterAll(async () => {
  await market?.stop()
  await solver?.close()
})

test('anvil_reorg replaces the block holding a swap: the market re-reads the pool at the new head and holds the state without the swap', async () => {
  const [a, b] = sm.tokens
  const before = await chainV3(await head())
  await sm.swap('v3', BigInt(a) < BigInt(b), 3n * 10n ** 19n)
  const swapped = await market.refresh()
  assert.ok(swapped.upserted.includes(v3()))
  assert.notDeepEqual(marketV3(), before)
  const dropped = market.freshness()
  // Depth 1, no transactions: the swap's block is replaced by an empty one at the same height.
  await rpc('anvil_reorg', [1, []])
  assert.equal(await head(), dropped.blockNumber)
  const report = await market.refresh()
  assert.ok(report.reorg, 'the step handled a reorg')
  assert.equal(report.reorg.droppedFrom, dropped.blockNumber)
  assert.equal(report.reorg.rebuilt, false)
  assert.equal(report.reorg.commonAncestor, (dropped.blockNumber as bigint) - 1n)
  assert.ok(report.reread.includes(v3()), 'the pool read for the dropped block is read again')
  const f = market.freshness()
  assert.equal(f.blockNumber, await head())
  assert.notEqual(f.blockHash, dropped.blockHash)
  assert.equal(f.reorgs, 1)
  assert.deepEqual(marketV3(), await chainV3(f.blockNumber as bigint))
  assert.deepEqual(marketV3(), before, 'the swap is gone')
  assert.ok(lines.some((l) => /reorg: block \d+ .* is not on the chain any more; common ancestor/.test(l)))
})

test("evm_revert drops three blocks and a longer branch with other swaps is mined: the common ancestor is found, both branches' pools are re-read", async () => {
  await market.refresh()
  const base = await head()
  const snapshot = await rpc('evm_snapshot')
  const [a, b] = sm.tokens
  await sm.swap('v3', BigInt(a) < BigInt(b), 10n ** 19n)
  await market.refresh()
  await sm.swap('alien', true, 10n ** 17n)
  await market.refresh()
  const droppedHash = market.freshness().blockHash
  await rpc('evm_revert', [snapshot])
  assert.ok(await sm.swapV2(true, 10n ** 16n, 1n))
  await sm.swap('v3', BigInt(a) > BigInt(b), 10n ** 18n)
  await sm.swap('v3', BigInt(a) > BigInt(b), 10n ** 18n)
  await rpc('evm_mine')
  const report = await market.refresh()
  assert.ok(report.reorg)
  assert.equal(report.reorg.commonAncestor, base)
  for (const id of [v3(), sm.alienPool.toLowerCase(), sm.v2Pair.toLowerCase()]) assert.ok(report.reread.includes(id), `${id} re-read`)
  const f = market.freshness()
  assert.equal(f.blockNumber, await head())
  assert.notEqual(f.blockHash, droppedHash)
  for (const snapshot of market.pools()) {
    if (snapshot.ref.dex === 'UNIV3') assert.deepEqual(snapshot.input, await chainV3(f.blockNumber as bigint))
  }
  // And the solver prices what the chain pays now.
  const quoted = await solver.simulate({ poolId: v3(), tokenIn: a, amountIn: (10n ** 18n).toString() })
  assert.equal(await sm.swap('v3', BigInt(a) < BigInt(b), 10n ** 18n), BigInt(quoted.amountOut))
})

test('a plan solved while a reorg is found is solved again on the new head; quotes are refused while the market re-reads', async () => {
  await market.refresh()
  const [a, b] = sm.tokens
  await sm.swap('v3', BigInt(a) < BigInt(b), 2n * 10n ** 19n)
  await market.refresh()
  let reorgDuringSolve = true
  const solves: (number | null)[] = []
  const service = createQuoteService({
    solver: {
      quote: async (request) => {
        const plan = await solver.quote(request)
        solves.push(plan.blockNumber)
        if (reorgDuringSolve) {
          reorgDuringSolve = false
          await rpc('anvil_reorg', [1, []])
          let refusedWhileReorging: unknown
          onLine = (line) => {
            if (!line.includes('reorg:')) return
            try {
              market.assertFresh()
            } catch (error) {
              refusedWhileReorging = error
            }
          }
          await market.refresh()
          onLine = () => {}
          assert.ok(refusedWhileReorging instanceof MarketStaleError, 'refused while the reorg is handled')
          assert.match((refusedWhileReorging as Error).message, /a reorg dropped block \d+/)
          market.assertFresh()
        }
        return plan
      },
    },
    market,
    chainId: sm.chain.chainId,
    weth: sm.chain.weth,
    router: sm.harness,
    getGasPriceWei: async () => 0n,
  })
  const request = {
    ...smallMarketV3Request(sm),
    // Room for the retry: it runs only within what the reorg's handling left of the budget.
    timeBudgetMs: 10_000,
  }
  const plan = await service.quote(request)
  assert.equal(solves.length, 2, 'solved again')
  assert.equal(solves[0], solves[1], 'same height, other block')
  assert.equal(BigInt(plan.blockNumber), await head())
  const fresh = await solver.simulate({ poolId: v3(), tokenIn: a, amountIn: request.amountIn })
  assert.equal(plan.routes[0].legs[0].amountIn, request.amountIn)
  assert.equal(BigInt(plan.expectedAmountOut), BigInt(fresh.amountOut), 'priced on the state without the dropped swap')
})
