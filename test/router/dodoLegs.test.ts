import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, encodeAbiParameters, encodeFunctionData, type Hex, maxUint256, parseAbi, zeroAddress } from 'viem'
import { loadSolver } from '../../bindings/index.ts'
import type { Solver } from '../../bindings/types.ts'
import { dodoV2 } from '../../src/adapters/dodoV2.ts'
import type { PoolRef } from '../../src/adapters/PoolAdapter.ts'
import { DODO_QUOTE_TRADER } from '../../src/adapters/state/readDodoV2Pool.ts'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { type DodoV2MarketPool, deployDodoV2Market } from '../../src/devnet/deployDodoV2Market.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { deployTestToken } from '../../src/devnet/deployTestToken.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { estimateRouterOverheadGas } from '../../src/quote/estimateRouterOverheadGas.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { tokenBalanceOf } from '../differential/harnessContracts.ts'
import type { RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, rawSwapParams, routeLeg, routePlan } from './planBuilders.ts'
import { routerRevert } from './routerCall.ts'

// The router's `dodo_v2` leg (contracts/router/DodoLegs.sol) on one anvil chain, against our DODO
// V2 PMM stand-ins as `deployDodoV2Market` seeds them (a DVM, two DSPs, a DPP). Both directions of
// every pool through the plan encoder's leg: the recipient gets exactly what the pool's own
// `querySellBase`/`querySellQuote` gives for the transaction's sender, whose maintainer fee rate
// (set apart from the router's and the default) is the one charged: the pools ask their fee-rate
// model for `tx.origin`. minOut one wei above reverts `LegMinOut`. A two-leg route DSP then DVM;
// malformed leg data; no token left in the router. Then the reader (src/adapters/dodoV2.ts): the
// pools found from the factory's NewDVM/NewDSP/NewDPP logs (and one configured, its variant read
// from `version()`), each read at a block, fed to the Rust solver, whose `simulate` equals what the
// router then pays through the adapter's leg, both directions, three sizes, with a maintainer rate
// charged; those legs' gas (docs/gas-model.md's unit) holds the registry's figure to 15 %.
// Starts one chain, no server; about 3 s alone.

const RECIPIENT: Address = '0x000000000000000000000000000000000000d0de'
const tokenAbi = parseAbi(['function mint(address, uint256)', 'function approve(address, uint256) returns (bool)'])
const { DodoPmmPool, DodoFeeRateModel } = loadStandInArtifacts({ protocol: 'dodo' })
/** The sender's maintainer rate, 0.07 %: the pools' default is 0, so a quote for any other address pays more. */
const SENDER_RATE = 7n * 10n ** 14n

const devnet = useDevnet()
let router: Address
let pools: DodoV2MarketPool[]
let factory: Address
let feeRateModel: Address
let solver: Solver | undefined
const decimalsOf = new Map<Address, number>()
beforeAll(async () => {
  const weth9 = await deployContractAndWait({ devnet, artifact: devnet.artifacts.WETH9 })
  router = await deployRouter({ devnet, weth: weth9 })
  const tokens: Record<string, { address: Address; decimals: number }> = {}
  for (const [symbol, decimals] of [
    ['WETH', 18],
    ['USDC', 6],
    ['USDbC', 6],
    ['DAI', 18],
    ['cbETH', 18],
  ] as const) {
    const address = await deployTestToken({ devnet, name: symbol, symbol, decimals })
    tokens[symbol] = { address, decimals }
    decimalsOf.set(address, decimals)
    await write(address, tokenAbi, 'mint', [devnet.account, 10n ** 40n])
    await write(address, tokenAbi, 'approve', [router, maxUint256])
  }
  const market = await deployDodoV2Market({ devnet, tokens })
  ;({ pools, factory, feeRateModel } = market)
  await write(market.feeRateModel, DodoFeeRateModel.abi, 'setTraderRate', [devnet.account, SENDER_RATE])
}, 60_000)
afterAll(async () => {
  await solver?.close()
})

function write(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) {
  return writeContractAndWait({ devnet, address, abi: abi as never, functionName, args })
}

/** What the pool pays `trader` for `amountIn` of `tokenIn` now (its own query view). */
async function poolQuote(pool: DodoV2MarketPool, tokenIn: Address, amountIn: bigint, trader: Address): Promise<bigint> {
  const functionName = tokenIn === pool.baseToken ? 'querySellBase' : 'querySellQuote'
  const [receive] = (await devnet.publicClient.readContract({
    address: pool.pool,
    abi: DodoPmmPool.abi,
    functionName,
    args: [trader, amountIn],
  })) as readonly bigint[]
  return receive
}

const dodoLeg = (pool: DodoV2MarketPool, tokenIn: Address, minOut: bigint) =>
  routeLeg(
    tokenIn,
    tokenIn === pool.baseToken ? pool.quoteToken : pool.baseToken,
    { kind: 'dodo_v2', pool: pool.pool, baseToken: pool.baseToken },
    { minOut, dex: 'DODO_V2' },
  )

function planCall(amountIn: bigint, legs: ReturnType<typeof routeLeg>[]): Hex {
  return encodeSwapExactIn({ plan: routePlan([{ amountIn, legs }]), recipient: RECIPIENT, deadline: FAR_DEADLINE }).data
}

const revert = (data: Hex) => routerRevert({ market: { devnet, router } as unknown as RouterMarket, data })

/** Gas of each sent single-leg call, less the router's overhead as the service estimates it (docs/gas-model.md's unit). */
const legGas: number[] = []

async function send(data: Hex, tokenOut: Address): Promise<bigint> {
  const before = await tokenBalanceOf(devnet, tokenOut, RECIPIENT)
  const receipt = await sendAndWait({ devnet, to: router, data, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') throw new Error(`router call reverted: ${await revert(data)}`)
  const overhead = estimateRouterOverheadGas({ data, routes: 1, legs: 1, nativeIn: false, nativeOut: false, paysIntegratorFee: false })
  legGas.push(Number(receipt.gasUsed) - overhead)
  return (await tokenBalanceOf(devnet, tokenOut, RECIPIENT)) - before
}

async function assertRouterClean() {
  for (const token of decimalsOf.keys()) assert.equal(await tokenBalanceOf(devnet, token, router), 0n, `router holds ${token}`)
}

/** `whole` whole tokens of `token` plus an odd remainder. */
const sized = (token: Address, whole: bigint) => whole * 10n ** BigInt(decimalsOf.get(token) as number) + 123_457n

test('DVM, DSP and DPP, both directions: the router pays exactly the pool’s quote for the transaction’s sender; minOut one wei above reverts', async () => {
  const kinds = new Set<string>()
  for (const pool of pools) {
    kinds.add(pool.kind)
    for (const tokenIn of [pool.baseToken, pool.quoteToken]) {
      const whole = tokenIn === pool.quoteToken && pool.kind === 'DVM' ? 300_000n : pool.name.includes('ETH') ? 40n : 250_000n
      const amountIn = sized(tokenIn, whole)
      const [forSender, forRouter] = [
        await poolQuote(pool, tokenIn, amountIn, devnet.account),
        await poolQuote(pool, tokenIn, amountIn, router),
      ]
      assert.ok(forSender < forRouter, `${pool.name}: the sender's maintainer rate is charged, not the router's`)
      const tokenOut = tokenIn === pool.baseToken ? pool.quoteToken : pool.baseToken
      assert.match(await revert(planCall(amountIn, [dodoLeg(pool, tokenIn, forSender + 1n)])), /^LegMinOut\(0, 0, /)
      assert.equal(await send(planCall(amountIn, [dodoLeg(pool, tokenIn, forSender)]), tokenOut), forSender, `${pool.name} from ${tokenIn}`)
    }
  }
  assert.deepEqual([...kinds].sort(), ['DPP', 'DSP', 'DVM'])
  await assertRouterClean()
})

test('two legs: DSP DAI → USDC (sellBase), then DVM USDC → WETH (sellQuote); each leg and the total exactly as the pools quote', async () => {
  const daiUsdc = pools.find((p) => p.name === 'DAI/USDC') as DodoV2MarketPool
  const wethUsdc = pools.find((p) => p.name === 'WETH/USDC') as DodoV2MarketPool
  const amountIn = sized(daiUsdc.baseToken, 120_000n)
  const usdcOut = await poolQuote(daiUsdc, daiUsdc.baseToken, amountIn, devnet.account)
  const wethOut = await poolQuote(wethUsdc, wethUsdc.quoteToken, usdcOut, devnet.account)
  const legs = [dodoLeg(daiUsdc, daiUsdc.baseToken, usdcOut), dodoLeg(wethUsdc, wethUsdc.quoteToken, wethOut)]
  assert.equal(await send(planCall(amountIn, legs), wethUsdc.baseToken), wethOut)
  await assertRouterClean()
})

test('malformed dodo_v2 leg data reverts InvalidLegData(10); a baseToken that is the pool’s quote token delivers nothing', async () => {
  const pool = pools.find((p) => p.name === 'USDC/USDbC') as DodoV2MarketPool
  const amountIn = sized(pool.baseToken, 100n)
  const raw = (data: Hex, legPool: Address = pool.pool) =>
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [
        rawSwapParams({
          tokenIn: pool.baseToken,
          tokenOut: pool.quoteToken,
          amountIn,
          recipient: RECIPIENT,
          leg: { kind: 10, pool: legPool, data },
        }),
      ],
    })
  const word = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value])
  const other = [...decimalsOf.keys()].find((t) => t !== pool.baseToken && t !== pool.quoteToken) as Address
  for (const data of [
    '0x' as Hex,
    word(BigInt(other)),
    word(BigInt(pool.baseToken) | (1n << 160n)),
    `${word(BigInt(pool.baseToken))}00` as Hex,
  ])
    assert.equal(await revert(raw(data)), 'InvalidLegData(10)', data)
  assert.equal(await revert(raw(word(BigInt(pool.baseToken)), '0x0000000000000000000000000000000000000000')), 'InvalidLegData(10)')
  // The leg sells base but names the quote token as the base: sellQuote sees no quote input, pays nothing.
  assert.match(await revert(raw(word(BigInt(pool.quoteToken)))), /^NothingDelivered\(/)
  await assertRouterClean()
})

test('the reader: pools discovered from the factory’s events, read at a block, priced by the Rust solver; the router pays exactly the solver’s amount', async () => {
  // The sender and the reader's anonymous trader get the same maintainer rate, 0.04 % (the pools
  // charge tx.origin's; the reader asks for DODO_QUOTE_TRADER's: docs/dex-kinds.md, "DODO_V2").
  const rate = 4n * 10n ** 14n
  for (const trader of [devnet.account, DODO_QUOTE_TRADER]) await write(feeRateModel, DodoFeeRateModel.abi, 'setTraderRate', [trader, rate])
  const logs = await devnet.publicClient.getLogs({ address: factory, fromBlock: 0n })
  const refs = logs.map((log) => dodoV2.poolFromDiscoveryLog(log)).map((found) => ('ref' in found ? found.ref : assert.fail('skipped')))
  assert.deepEqual(
    refs.map((ref) => `${ref.dodo?.variant} ${ref.id}`),
    pools.map((p) => `${p.kind.toLowerCase()} ${p.pool.toLowerCase()}`),
  )
  solver = await loadSolver({ nativeToken: pools[0].baseToken })
  const configured = dodoV2.refOfConfiguredPool({ dex: 'DODO_V2', address: pools[3].pool }, undefined)
  let checked = 0
  legGas.length = 0
  const registryGas = new Set<number>()
  for (const ref of [...refs, configured] as PoolRef[]) {
    const pool = pools.find((p) => p.pool.toLowerCase() === ref.id) as DodoV2MarketPool
    for (const tokenIn of [pool.baseToken, pool.quoteToken]) {
      for (const whole of [1n, 20n, pool.name.includes('ETH') ? 400n : 900_000n]) {
        const blockNumber = await devnet.publicClient.getBlockNumber()
        const { timestamp } = await devnet.publicClient.getBlock({ blockNumber })
        const snapshot = await dodoV2.readPool({
          client: devnet.publicClient,
          ref,
          blockNumber,
          nextBlock: { number: blockNumber + 1n, timestamp: timestamp + 2n },
        })
        const state = snapshot.input.state
        assert.ok(state.model === 'dodo_pmm' && state.variant === pool.kind.toLowerCase() && state.mtFeeRate === rate.toString(), ref.id)
        assert.deepEqual(snapshot.input.tokens, [pool.baseToken.toLowerCase(), pool.quoteToken.toLowerCase()])
        await solver.upsertPools([snapshot.input])
        const amountIn = sized(tokenIn, whole)
        const { amountOut, gasUnits } = await solver.simulate({
          poolId: ref.id,
          tokenIn: tokenIn.toLowerCase() as Address,
          amountIn: amountIn.toString(),
        })
        registryGas.add(gasUnits)
        const leg = dodoV2.encodeLeg(snapshot.ref)
        const tokenOut = tokenIn === pool.baseToken ? pool.quoteToken : pool.baseToken
        const plan = routeLeg(tokenIn, tokenOut, leg, { minOut: BigInt(amountOut), dex: 'DODO_V2' })
        assert.equal(await send(planCall(amountIn, [plan]), tokenOut), BigInt(amountOut), `${pool.name} from ${tokenIn}, ${whole} whole`)
        checked++
      }
    }
  }
  assert.equal(checked, 5 * 2 * 3)
  // Gas: each leg in docs/gas-model.md's unit against the registry's one figure (the e2e suite
  // holds whole estimates to 15 % of gas used; here the leg alone, which is stricter).
  const sorted = [...legGas].sort((a, b) => a - b)
  const median = sorted[sorted.length >> 1]
  console.log(
    `dodo_v2 leg gas (min / median / max over ${sorted.length}): ${sorted[0]} / ${median} / ${sorted[sorted.length - 1]}; registry ${[...registryGas]}`,
  )
  assert.equal(registryGas.size, 1)
  const [figure] = registryGas
  assert.ok(Math.abs(figure - median) <= 0.15 * median, `registry ${figure} vs median ${median}`)
  // The maintainer's rate is the model's for the anonymous trader: a pool with no model would read 0.
  assert.notEqual(DODO_QUOTE_TRADER, devnet.account)
  assert.equal(DODO_QUOTE_TRADER, zeroAddress)
  await assertRouterClean()
})
