import { setTimeout as sleep } from 'node:timers/promises'
import { type Address, createWalletClient, decodeFunctionResult, type Hex, http, parseAbi, parseEther, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { baseMarketTokens } from '../../src/devnet/seed/baseMarketTokens.ts'
import { createDevnetClients } from '../../src/devnet/createDevnetClients.ts'
import { defineDevnetChain } from '../../src/devnet/defineDevnetChain.ts'
import { fundTrader } from '../../src/devnet/fundTrader.ts'
import type { DevnetDescription } from '../../src/devnet/seed/DevnetDescription.ts'
import { waitForReceipt } from '../../src/devnet/waitForReceipt.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createPrng } from '../../test/differential/createPrng.ts'
import { describePlanPools } from './describePlanPools.ts'
import { drawSoakTrade, type SoakToken } from './drawSoakTrade.ts'

export type RunBackToBackSoakParameters = {
  /** The running service's swap surface, e.g. http://127.0.0.1:8080. */
  url: string
  apiKey: string
  /** The embedded chain the service runs on (`var/devnet.json`): its tokens, accounts and RPC URL. */
  devnet: DevnetDescription
  /** Trades to execute; draws that find no route do not count (at most four draws per trade). */
  trades: number
  seed: number
  /** Seeded accounts used as the trader and the recipient (default 7 and 8: not the fee recipient, the last). */
  traderIndex?: number
  recipientIndex?: number
  /** The chain's block time (Base: 2 s), for reading clock-driven fees as the market does. */
  blockTimeSec?: number
  /** A line per trade and the diagnosis of every trade that differs; default none. */
  log?: (line: string) => void
}

export type SoakCounts = {
  exact: number
  /**
   * Trades whose plan has a sampled leg (metadata.sampledLegs: a CURVE CryptoSwap pool) before
   * another leg of its route, or one sampled pool in two legs: such a plan is a lower bound
   * (docs/dex-kinds.md, CURVE; docs/prop-amms.md); they paid at least expectedAmountOut, in the next block.
   */
  sampledAtLeast: number
  different: number
  reverted: number
  /** Trades whose `eth_call` in the next block's clock did not answer `expectedAmountOut` (listed in the differences). */
  simulationDiffers: number
  /** Refused as no route (dust, a kind with no pool between the tokens): not traded. */
  noRoute: number
  /** Quotes answered with a plan before the chain's head although the market said it was there (asked again). */
  behindPlans: number
  splits: number
  multiHop: number
  nativeIn: number
  nativeOut: number
  withFee: number
  legsByKind: Record<string, number>
}

export type SoakReport = {
  counts: SoakCounts
  /** Each trade that did not pay exactly what its plan said, with its pools' states side by side. */
  differences: string[]
}

const erc20 = parseAbi(['function balanceOf(address) view returns (uint256)'])

/**
 * The back-to-back soak (bench/README.md): `trades` random trades executed one after another on a
 * running service with its own poller, each in the block right after its plan's. Per trade: quote
 * (`/quote` + `/submit`, or `/execute`) until the plan names the chain's head block, `eth_call` the
 * transaction on that block's state in the next block's clock, send it, and check it was mined in
 * the next block and paid the recipient exactly `expectedAmountOut` and the fee recipient exactly
 * `integratorFeeAmount` (balances read at the plan's block and at the receipt's, so nothing else
 * can move them). A trade that pays otherwise is reported with, for every pool of its plan, the
 * state the solver priced (and the block it was read at) beside the chain's state at the plan's
 * block. The chain must be the embedded one (accounts are funded with its test methods), and the
 * integrator fee is checked at its default recipient, the last dev account (a service started with
 * FEE_RECIPIENT pays elsewhere: every fee trade then counts as different).
 *
 * @example
 * const { counts, differences } = await runBackToBackSoak({ url, apiKey, devnet, trades: 100, seed: 1 })
 * // → counts { exact, different, reverted, simulationDiffers, noRoute, … } over 100 trades; differences: one line per trade that differed
 */
export async function runBackToBackSoak({
  url,
  apiKey,
  devnet,
  trades,
  seed,
  traderIndex = 7,
  recipientIndex = 8,
  blockTimeSec = 2,
  log = () => {},
}: RunBackToBackSoakParameters): Promise<SoakReport> {
  const chain = defineDevnetChain({ url: devnet.rpcUrl, chainId: devnet.chainId })
  const trader = devnet.accounts[traderIndex]
  const recipient = devnet.accounts[recipientIndex].address
  const { publicClient, testClient } = createDevnetClients({ chain, url: devnet.rpcUrl, account: trader.address })
  const client = publicClient as unknown as PublicClient
  const wallet = createWalletClient({
    account: privateKeyToAccount(trader.privateKey),
    chain,
    transport: http(devnet.rpcUrl, { retryCount: 0 }),
  })
  await fundTrader({
    devnet: { market: devnet, chain, publicClient, testClient },
    privateKey: trader.privateKey,
    spender: devnet.router,
    wethAmount: parseEther('10000000'),
  })

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  const balanceAt = (token: Address | 'native', owner: Address, blockNumber: bigint) =>
    token === 'native'
      ? publicClient.getBalance({ address: owner, blockNumber })
      : publicClient.readContract({ address: token, abi: erc20, functionName: 'balanceOf', args: [owner], blockNumber })

  const tokens: SoakToken[] = Object.entries(devnet.tokens).map(([symbol, t]) => ({
    symbol,
    address: t.address,
    decimals: t.decimals,
    priceUsd: baseMarketTokens.find((m) => m.symbol === symbol)?.priceUsd ?? 1,
  }))
  const kinds = [...new Set(devnet.pools.map((p) => p.dex))]
  const prng = createPrng({ seed })
  const counts: SoakCounts = {
    exact: 0,
    sampledAtLeast: 0,
    different: 0,
    reverted: 0,
    simulationDiffers: 0,
    noRoute: 0,
    behindPlans: 0,
    splits: 0,
    multiHop: 0,
    nativeIn: 0,
    nativeOut: 0,
    withFee: 0,
    legsByKind: {},
  }
  const differences: string[] = []

  for (let i = 0; counts.exact + counts.sampledAtLeast + counts.different + counts.reverted < trades; i++) {
    if (i >= 4 * trades)
      throw new Error(
        `${i} draws found a route for only ${counts.exact + counts.sampledAtLeast + counts.different + counts.reverted} trades of ${trades}`,
      )
    const trade = drawSoakTrade({ prng, chainId: devnet.chainId, tokens, kinds })
    const label = `#${i} ${trade.label}`
    // Nothing else trades on the embedded chain: its head moves only with our trades. Wait for the
    // market to reach it (`/ready` is public and not counted against the key's limit), then quote
    // until the plan names that block: only then is it a promise about the chain as it is.
    const head = await publicClient.getBlockNumber({ cacheTime: 0 })
    for (let attempt = 0; ; attempt++) {
      const ready = await call('GET', '/ready')
      if (ready.json.market?.blockNumber !== null && BigInt(ready.json.market?.blockNumber ?? -1) >= head) break
      if (attempt >= 1000) throw new Error(`${label}: the market did not reach block ${head} in 10 s`)
      await sleep(10)
    }
    let answer: { status: number; json: any }
    for (let attempt = 0; ; attempt++) {
      answer = trade.viaExecute
        ? await call('POST', '/execute', { ...trade.request, user: recipient })
        : await call('POST', '/quote', trade.request)
      // A service with the default limit (120 a minute) is waited for, not failed.
      if (answer.status === 429) {
        await sleep(1000)
        continue
      }
      if (answer.status !== 200 || BigInt(answer.json.routePlan.blockNumber) >= head) break
      counts.behindPlans++
      if (attempt >= 100) throw new Error(`${label}: plans still name a block before ${head} after 100 quotes`)
      await sleep(10)
    }
    if (answer.status === 400 && /^no route/.test(answer.json.error)) {
      counts.noRoute++
      continue
    }
    if (answer.status !== 200) throw new Error(`${label}: ${answer.status} ${JSON.stringify(answer.json)}`)
    const plan = answer.json.routePlan
    const planBlock = BigInt(plan.blockNumber)
    const payload = trade.viaExecute ? answer.json : (await call('POST', '/submit', { quoteId: answer.json.quoteId, user: recipient })).json
    if (!payload.data) throw new Error(`${label}: no calldata: ${JSON.stringify(payload)}`)
    const tx = { to: payload.to as Address, data: payload.data as Hex, value: BigInt(payload.value) }

    // The same transaction on the plan's block's state in the next block's clock (number + 1, its
    // time + the block time), as a careful client checks before signing: a plain call at the plan's
    // block runs in that block's clock, where Algebra's and Slipstream's fees are not the next
    // block's (docs/quote.md, "What a client may rely on").
    let simulated: string
    try {
      const { timestamp } = await publicClient.getBlock({ blockNumber: planBlock })
      const { data } = await publicClient.call({
        account: trader.address,
        ...tx,
        blockNumber: planBlock,
        blockOverrides: { number: planBlock + 1n, time: timestamp + BigInt(blockTimeSec) },
      })
      simulated = String(decodeFunctionResult({ abi: swapRouterAbi, functionName: 'swapExactIn', data: data as Hex }))
    } catch (error) {
      simulated = `reverts (${(error as Error).message.split('\n')[0]})`
    }

    const outToken: Address | 'native' = plan.nativeOut ? 'native' : devnet.tokens[trade.symbolOut].address
    // The router pays the fee in WETH on native-out swaps.
    const feeToken = devnet.tokens[trade.symbolOut].address
    const feeRecipient = devnet.accounts[devnet.accounts.length - 1].address
    const hash = await wallet.sendTransaction({ ...tx, gas: 1n << 24n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 0n })
    const receipt = await waitForReceipt({ publicClient, hash })
    const legs = plan.routes.flatMap((r: any) => r.legs)
    const sampledLegs: any[] = plan.metadata.sampledLegs ?? []
    const lowerBound =
      sampledLegs.some((s) => s.leg < plan.routes[s.route].legs.length - 1) ||
      new Set(sampledLegs.map((s) => s.poolId)).size < sampledLegs.length
    const route = plan.routes.map((r: any) => r.legs.map((l: any) => `${l.dex}:${l.poolId.slice(0, 10)}`).join('>')).join(' | ')
    const where = `plan at block ${planBlock}, mined in ${receipt.blockNumber}; eth_call on the plan's block in the next block's clock: ${simulated}; ${route}`
    if (receipt.status !== 'success') {
      counts.reverted++
      differences.push(`${label}: reverted; ${where}`)
    } else {
      const [outBefore, outAfter, feeBefore, feeAfter] = await Promise.all([
        balanceAt(outToken, recipient, planBlock),
        balanceAt(outToken, recipient, receipt.blockNumber),
        balanceAt(feeToken, feeRecipient, planBlock),
        balanceAt(feeToken, feeRecipient, receipt.blockNumber),
      ])
      const received = outAfter - outBefore
      const fee = feeAfter - feeBefore
      const nextBlock = receipt.blockNumber === planBlock + 1n
      if (nextBlock && received === BigInt(plan.expectedAmountOut) && fee === BigInt(plan.feeBreakdown.integratorFeeAmount)) counts.exact++
      else if (
        lowerBound &&
        nextBlock &&
        received >= BigInt(plan.expectedAmountOut) &&
        fee >= BigInt(plan.feeBreakdown.integratorFeeAmount)
      )
        counts.sampledAtLeast++
      else {
        counts.different++
        const pools = await describePlanPools({
          fetchServicePool: (poolId, blockNumber) => call('GET', `/market/pools/${poolId}?blockNumber=${blockNumber}`),
          client,
          poolIds: legs.map((l: any) => l.poolId),
          blockNumber: Number(planBlock),
          blockTimeSec,
          executor: devnet.router,
        })
        differences.push(
          [
            `${label}: received ${received}, plan said ${plan.expectedAmountOut} (fee ${fee} vs ${plan.feeBreakdown.integratorFeeAmount}); ${where}`,
            ...pools,
          ].join('\n'),
        )
        log(differences[differences.length - 1])
      }
    }
    if (
      simulated !== plan.expectedAmountOut &&
      !(lowerBound && /^[0-9]+$/.test(simulated) && BigInt(simulated) >= BigInt(plan.expectedAmountOut))
    ) {
      counts.simulationDiffers++
      differences.push(
        `${label}: the eth_call in the next block's clock answered ${simulated}, the plan said ${plan.expectedAmountOut}; ${where}`,
      )
    }
    counts.splits += plan.routes.length > 1 ? 1 : 0
    counts.multiHop += plan.routes.some((r: any) => r.legs.length > 1) ? 1 : 0
    counts.nativeIn += plan.nativeIn ? 1 : 0
    counts.nativeOut += plan.nativeOut ? 1 : 0
    counts.withFee += trade.request.feeBps > 0 ? 1 : 0
    for (const leg of legs) counts.legsByKind[leg.dex] = (counts.legsByKind[leg.dex] ?? 0) + 1
    log(`${label}: ${receipt.status === 'success' ? 'paid' : 'reverted'}; ${where}`)
  }
  return { counts, differences }
}
