import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Address, createWalletClient, type Hex, http, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { loadConfig } from '../../src/config/loadConfig.ts'
import { baseMarketTokens } from '../../src/devnet/seed/baseMarketTokens.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { type SwapService, startSwapService } from '../../src/startSwapService.ts'
import { createPrng } from '../differential/createPrng.ts'
import { fundTrader } from './fundTrader.ts'

// A plan's blockNumber is a promise (docs/quote.md): the plan is exact on the state at that block,
// for execution in the next one. This drives the running service as a user would, through HTTP,
// with its own poller at its default interval and no in-process refresh: one trade after another
// on the embedded chain, on pairs that share pools, sized to move them (the Algebra pools'
// adaptive fees then follow the clock), each quoted until its plan names a block at or after the
// previous trade, then signed and sent. Every trade must pay exactly expectedAmountOut.

const TRADES = Number(process.env.STRESS_TRADES ?? 240)
const SEED = Number(process.env.STRESS_SEED ?? 4711)
const KEY = 'stress-test-key-0123456789abcdef'
const NATIVE: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const SYMBOLS = ['WETH', 'USDC', 'USDbC', 'DAI', 'cbBTC', 'cbETH', 'AERO'] as const
const ALGEBRA = ['QUICKSWAP_V4', 'HYDREX'] as const
const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])

let service: SwapService
let url: string

beforeAll(async () => {
  // The service's own defaults (poll interval, snapshot age), with a key and a limit for a busy client.
  const config = loadConfig({ API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'silent' })
  service = await startSwapService({ config, logger: false })
  await service.fastify.listen({ host: '127.0.0.1', port: 0 })
  const address = service.fastify.server.address()
  assert.ok(address && typeof address === 'object')
  url = `http://127.0.0.1:${address.port}`
}, 600_000)
afterAll(async () => {
  await service?.fastify.close()
})

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body: JSON.stringify(body) })
  return { status: res.status, json: await res.json() }
}

test(`${TRADES} back-to-back trades through HTTP on the live poller: each pays exactly expectedAmountOut`, { timeout: 30 * 60_000 }, async () => {
  const { devnet, publicClient, deps } = service
  assert.ok(devnet, 'the embedded chain')
  const seeded = devnet.market
  const router = deps.quoteService.router
  const trader = privateKeyToAccount(seeded.accounts[5].privateKey)
  const recipient = seeded.accounts[6].address
  const feeRecipient = deps.feeRecipient as Address
  const wallet = createWalletClient({ account: trader, chain: devnet.chain, transport: http(seeded.rpcUrl, { retryCount: 0 }) })
  const send = async (tx: { to: Address; data: Hex; value?: bigint }) => {
    const hash = await wallet.sendTransaction({ ...tx, value: tx.value ?? 0n, gas: 1n << 24n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 0n })
    return waitForReceipt({ publicClient: devnet.publicClient, hash })
  }
  const balance = (token: Address | 'native', owner: Address) =>
    token === 'native' ? publicClient.getBalance({ address: owner }) : publicClient.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [owner] })

  await fundTrader({ devnet, privateKey: seeded.accounts[5].privateKey, spender: router, wethAmount: parseEther('10000000') })

  const prng = createPrng({ seed: SEED })
  const priceUsd = (symbol: string) => baseMarketTokens.find((t) => t.symbol === symbol)!.priceUsd
  let lastTradeBlock = await publicClient.getBlockNumber({ cacheTime: 0 })
  const mismatches: string[] = []
  const stats = { executed: 0, noRoute: 0, behindPlans: 0, splits: 0, algebraLegs: 0, nativeIn: 0, nativeOut: 0, viaExecute: 0 }
  const touched = new Set<string>()
  let reused = 0

  for (let i = 0; i < TRADES; i++) {
    const a = prng.pick(SYMBOLS)
    const b = prng.pick(SYMBOLS.filter((s) => s !== a))
    const nativeIn = a === 'WETH' && prng.chance(0.2)
    const nativeOut = b === 'WETH' && !nativeIn && prng.chance(0.2)
    // $1 to $3M, log-uniform: small trades, and trades that move the deepest pools.
    const usd = 10 ** (prng.next() * 6.5)
    const decimals = seeded.tokens[a].decimals
    const amountIn = BigInt(Math.max(1, Math.floor((usd / priceUsd(a)) * 1e6))) * 10n ** BigInt(decimals) / 10n ** 6n
    const request = {
      chainId: seeded.chainId,
      tokenIn: nativeIn ? NATIVE : seeded.tokens[a].address,
      tokenOut: nativeOut ? NATIVE : seeded.tokens[b].address,
      amountIn: amountIn.toString(),
      slippageBps: prng.pick([0, 10, 50]),
      feeBps: prng.chance(0.4) ? prng.pick([5, 30, 100]) : 0,
      splitEnabled: prng.chance(0.7),
      ...(prng.chance(0.3) ? { allowedDexes: [...ALGEBRA] } : {}),
    }
    const label = `#${i} ${amountIn} ${nativeIn ? 'ETH' : a}->${nativeOut ? 'ETH' : b} (~$${usd.toPrecision(3)})`
    const viaExecute = prng.chance(0.3)

    // Quote until the plan names a block at or after the previous trade's: only then is it a
    // promise about the chain as it is now.
    let answer: { status: number; json: any }
    for (let attempt = 0; ; attempt++) {
      answer = viaExecute ? await post('/execute', { ...request, user: recipient }) : await post('/quote', request)
      if (answer.status !== 200 || answer.json.routePlan.blockNumber >= Number(lastTradeBlock)) break
      stats.behindPlans++
      assert.ok(attempt < 400, `${label}: the market did not reach block ${lastTradeBlock}`)
      await sleep(10)
    }
    if (answer.status === 400 && /^no route/.test(answer.json.error)) {
      stats.noRoute++
      continue
    }
    assert.equal(answer.status, 200, `${label}: ${JSON.stringify(answer.json)}`)
    const plan = answer.json.routePlan
    const payload = viaExecute ? answer.json : (await post('/submit', { quoteId: answer.json.quoteId, user: recipient })).json
    assert.ok(payload.data, `${label}: no calldata: ${JSON.stringify(payload)}`)

    const outToken: Address | 'native' = plan.nativeOut ? 'native' : seeded.tokens[b].address
    const feeToken = seeded.tokens[b].address // the router pays the fee in WETH on native-out swaps
    const [outBefore, feeBefore] = await Promise.all([balance(outToken, recipient), balance(feeToken, feeRecipient)])
    const receipt = await send({ to: payload.to, data: payload.data, value: BigInt(payload.value) })
    assert.equal(receipt.status, 'success', `${label}: reverted (plan at block ${plan.blockNumber}, mined in ${receipt.blockNumber})`)
    const [outAfter, feeAfter] = await Promise.all([balance(outToken, recipient), balance(feeToken, feeRecipient)])
    const received = outAfter - outBefore
    if (received !== BigInt(plan.expectedAmountOut) || feeAfter - feeBefore !== BigInt(plan.feeBreakdown.integratorFeeAmount)) {
      const legs = plan.routes.map((r: any) => r.legs.map((l: any) => `${l.dex}:${l.poolId.slice(0, 10)}`).join('>')).join(' | ')
      mismatches.push(`${label}: received ${received}, plan said ${plan.expectedAmountOut} (fee ${feeAfter - feeBefore} vs ${plan.feeBreakdown.integratorFeeAmount}); plan block ${plan.blockNumber}, previous trade ${lastTradeBlock}, mined in ${receipt.blockNumber}; ${legs}`)
    }

    const pools = plan.routes.flatMap((r: any) => r.legs.map((l: any) => l.poolId as string))
    if (pools.some((p: string) => touched.has(p))) reused++
    for (const p of pools) touched.add(p)
    stats.executed++
    stats.splits += plan.routes.length > 1 ? 1 : 0
    stats.algebraLegs += plan.routes.flatMap((r: any) => r.legs).filter((l: any) => (ALGEBRA as readonly string[]).includes(l.dex)).length
    stats.nativeIn += plan.nativeIn ? 1 : 0
    stats.nativeOut += plan.nativeOut ? 1 : 0
    stats.viaExecute += viaExecute ? 1 : 0
    lastTradeBlock = receipt.blockNumber
  }

  console.log(`back-to-back: ${JSON.stringify({ ...stats, tradesReusingAPool: reused, mismatches: mismatches.length })}`)
  assert.deepEqual(mismatches, [], 'every trade pays exactly what its plan said')
  // The run exercised what it is about: pools moved by earlier trades, the Algebra fees, splits,
  // and plans that were behind the chain (the poller caught up while the client waited).
  assert.ok(stats.executed >= TRADES * 0.8, `only ${stats.executed} of ${TRADES} trades executed`)
  assert.ok(reused >= stats.executed * 0.8, `only ${reused} trades went through a pool an earlier trade had moved`)
  assert.ok(stats.algebraLegs > TRADES * 0.3, `only ${stats.algebraLegs} Algebra legs`)
  assert.ok(stats.splits > 0 && stats.behindPlans > 0 && stats.nativeIn > 0 && stats.nativeOut > 0)
})
