import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { hexToBigInt } from 'viem'
import type { SolverPlan, SolverQuoteRequest } from '../../bindings/types.ts'
import { createApiKeyCheck } from '../../src/http/auth/createApiKeyCheck.ts'
import { createSwapApp } from '../../src/http/createSwapApp.ts'
import { createQuoteIssuer } from '../../src/http/quotes/createQuoteIssuer.ts'
import { createMemoryQuoteStore } from '../../src/http/quotes/createQuoteStore.ts'
import type { SwapApiDependencies } from '../../src/http/SwapApiDependencies.ts'
import { createMemoryRateLimiter } from '../../src/limits/createMemoryRateLimiter.ts'
import { createQuoteService } from '../../src/quote/createQuoteService.ts'
import { callApp } from './callApp.ts'
import { type HttpTestStack, KEY_A, startHttpTestStack } from './startHttpTestStack.ts'

// `timeBudgetMs` bounds the whole quote, a reorg's retry included (docs/quote.md, "The time
// budget"): on the running service (embedded chain, its real poller every 250 ms, the native
// solver), through HTTP on a socket. The chain is reorganised with anvil's own call while a quote
// is in its solve: the solver the service calls is the real one, followed by the reorg, which the
// market handles before the solve answers (as a poll during a long solve would).

let stack: HttpTestStack
let app: FastifyInstance
let quoteBody: Record<string, unknown>
/** Each solve the service asked for: its budget, when it started, and when it answered. */
let solves: { budgetMs: number | undefined; startedAt: number; answeredAt: number; blockNumber: number | null }[] = []
/** Runs inside the first solve of a quote, after the real solver answered (the reorg goes here). */
let duringFirstSolve: ((plan: SolverPlan, startedAt: number) => Promise<void>) | undefined

const rpc = (method: string, params: unknown[] = []) =>
  stack.service.publicClient.request({ method: method as never, params: params as never }) as Promise<unknown>
const chainHead = async () => hexToBigInt((await rpc('eth_blockNumber')) as `0x${string}`)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Waits until `ms` have passed since `since` on performance.now() (a timer may fire a little early). */
const waitUntil = async (since: number, ms: number) => {
  while (performance.now() - since < ms) await sleep(Math.max(1, ms - (performance.now() - since)))
}

/** Steps the market (beside its own poller) until `done` holds and no reorg is being handled. */
async function stepMarketUntil(done: () => boolean) {
  const market = stack.service.market
  let problem: unknown
  for (let i = 0; i < 200; i++) {
    await market.refresh().catch((error: unknown) => {
      problem = error
    })
    try {
      market.assertFresh()
      if (done()) return
    } catch (error) {
      problem = error
    }
    await sleep(25)
  }
  throw new Error(
    `the market did not reach the expected state: ${JSON.stringify(market.freshness(), (_k, v) => (typeof v === 'bigint' ? String(v) : v))} ${String(problem)}`,
  )
}

/**
 * anvil_reorg replaces the last `depth` blocks by new ones, the first holding a transfer (an empty
 * block at the same height and time as an empty one would have its hash, and so would the same
 * transfer twice); returns once the market has handled it.
 */
let reorgCount = 0
async function reorgAndWait(depth: number) {
  const before = stack.service.market.freshness().reorgs
  const account = stack.service.devnet!.account
  reorgCount++
  await rpc('anvil_reorg', [depth, [[{ from: account, to: account, value: `0x${reorgCount.toString(16)}` }, 0]]])
  await stepMarketUntil(() => stack.service.market.freshness().reorgs > before)
}

beforeAll(async () => {
  stack = await startHttpTestStack()
  const { service } = stack
  const solver = {
    quote: async (request: SolverQuoteRequest): Promise<SolverPlan> => {
      const startedAt = performance.now()
      const plan = await service.solver.quote(request)
      const hook = duringFirstSolve
      duringFirstSolve = undefined
      if (hook) await hook(plan, startedAt)
      solves.push({ budgetMs: request.timeBudgetMs, startedAt, answeredAt: performance.now(), blockNumber: plan.blockNumber })
      return plan
    },
  }
  const store = createMemoryQuoteStore({})
  const deps: SwapApiDependencies = {
    ...service.deps,
    quoteService: createQuoteService({
      solver,
      market: service.market,
      chainId: service.chain.chainId,
      weth: service.chain.weth,
      router: service.deps.quoteService.router,
      getGasPriceWei: async () => service.market.feesAt(undefined)?.gasPriceWei ?? 0n,
    }),
    apiKeys: createApiKeyCheck({ keys: [KEY_A] }),
    limiter: createMemoryRateLimiter({ limit: 1000 }),
    quoteStore: store,
    quoteIssuer: createQuoteIssuer({ store, ttlMs: 30_000 }),
  }
  app = await createSwapApp({ deps, logger: false })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const tokens = service.devnet!.market.tokens
  quoteBody = {
    chainId: 8453,
    tokenIn: tokens.WETH.address,
    tokenOut: tokens.USDC.address,
    amountIn: '1000000000000000000',
    slippageBps: 50,
  }
}, 300_000)
afterAll(async () => {
  await app?.close()
  await stack?.close()
})

const quote = (timeBudgetMs: number) => callApp(app, 'socket', { url: '/quote', key: KEY_A, body: { ...quoteBody, timeBudgetMs } })

test("a reorg that drops the plan's block: solved again on the new head, with only what is left of the budget", async () => {
  await stepMarketUntil(() => true)
  solves = []
  const budgetMs = 3_000
  let droppedBlock: number | null = null
  duringFirstSolve = async (plan, startedAt) => {
    droppedBlock = plan.blockNumber
    await reorgAndWait(1)
    // A long first solve: a third of the budget is gone when the service sees the reorg.
    await waitUntil(startedAt, 1_000)
  }
  const res = await quote(budgetMs)
  assert.equal(res.status, 200, res.text)
  assert.equal(solves.length, 2, 'solved again after the reorg')
  const [first, second] = solves
  assert.equal(first.budgetMs !== undefined && first.budgetMs <= budgetMs, true, `first budget ${first.budgetMs}`)
  // The retry gets what is left: the budget less the time from the first solve's start to its answer.
  const spentMs = first.answeredAt - first.startedAt
  assert.ok(spentMs >= 1_000)
  assert.ok(
    second.budgetMs !== undefined && second.budgetMs <= budgetMs - spentMs,
    `retry budget ${second.budgetMs} after ${spentMs} ms spent`,
  )
  assert.equal(second.blockNumber, droppedBlock, 'same height, the new branch')
  assert.equal(BigInt(res.json.routePlan.blockNumber), await chainHead())
  assert.equal(BigInt(res.json.routePlan.blockNumber), BigInt(second.blockNumber ?? -1))
})

test("a reorg that drops the plan's block after the budget is spent: refused (503), not solved twice", async () => {
  await stepMarketUntil(() => true)
  solves = []
  const budgetMs = 50
  duringFirstSolve = async (_plan, startedAt) => {
    await reorgAndWait(1)
    await waitUntil(startedAt, budgetMs + 10)
  }
  const res = await quote(budgetMs)
  assert.equal(res.status, 503, res.text)
  // A reorg during the solve is a cause the client may know (src/http/errors.ts): it is told, to ask again.
  assert.match(res.json.error, /^a reorg dropped the block the plan was priced on during the solve, .*: ask again$/)
  assert.equal(solves.length, 1, 'no second solve past the budget')
})

test("a reorg that drops only blocks after the plan's: the plan is served as solved, once", async () => {
  await stepMarketUntil(() => true)
  solves = []
  let solvedAt: number | null = null
  duringFirstSolve = async (plan) => {
    solvedAt = plan.blockNumber
    // The market moves on to the next block, which a reorg then replaces: the plan's block stays.
    await rpc('evm_mine')
    await stepMarketUntil(() => stack.service.market.freshness().blockNumber === BigInt(plan.blockNumber ?? -1) + 1n)
    await reorgAndWait(1)
  }
  const res = await quote(3_000)
  assert.equal(res.status, 200, res.text)
  assert.equal(solves.length, 1, 'not solved again: the reorg kept the block the plan was priced on')
  assert.equal(BigInt(res.json.routePlan.blockNumber), BigInt(solvedAt ?? -1))
  assert.equal(stack.service.market.freshness().blockNumber, BigInt(solvedAt ?? -1) + 1n, 'the market is at the new branch')
})
