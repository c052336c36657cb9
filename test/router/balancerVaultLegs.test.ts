import assert from 'node:assert/strict'
import { afterAll, beforeAll, test } from 'vitest'
import { type Address, encodeAbiParameters, encodeFunctionData, type Hex, maxUint256, parseAbi, zeroHash } from 'viem'
import type { Solver } from '../../bindings/types.ts'
import { loadSolver } from '../../bindings/index.ts'
import { gyroscopeEclp } from '../../src/adapters/gyroscopeEclp.ts'
import type { PoolRef, PoolSnapshot } from '../../src/adapters/PoolAdapter.ts'
import { deployGyroECLPMarket, type DeployGyroECLPMarketReturnType } from '../../src/devnet/deployGyroECLPMarket.ts'
import { deployMarketTestTokens } from '../../src/devnet/deployMarketTestTokens.ts'
import { deployRouter } from '../../src/devnet/deployRouter.ts'
import { loadStandInArtifacts } from '../../src/devnet/loadStandInArtifacts.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { estimateRouterOverheadGas } from '../../src/quote/estimateRouterOverheadGas.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createPrng } from '../differential/createPrng.ts'
import type { RouterMarket } from './createRouterMarket.ts'
import { FAR_DEADLINE, rawSwapParams, routeLeg, routePlan } from './planBuilders.ts'
import { routerRevert } from './routerCall.ts'

// The router's `balancer_vault` leg (contracts/router/BalancerVaultLegs.sol) on one anvil chain:
// Balancer's own V2 Vault (its mainnet bytecode) with the four E-CLP pools of
// `deployGyroECLPMarket` (our GyroECLPPool stand-in; two with rate providers). The pools are found
// and read the service's way, through the GYROSCOPE_ECLP adapter (the Vault's `PoolRegistered`,
// then `readPool` at a block), handed to the Rust solver, and every amount the solver simulates is
// what the router pays the recipient, exactly: both directions of every pool, random trades
// (`DIFF_GYRO_TRADES`, default 24, seed `DIFF_SEED`), a two-leg route, and after a rate provider
// moves (re-read through `readVolatile`). The leg's minOut is the Vault's
// limit (one wei more reverts in the Vault); malformed leg data reverts InvalidLegData(14); no
// allowance and no token stays in the router; the gas a repeated leg through one pool saves.

const RECIPIENT: Address = '0x000000000000000000000000000000000000ba1a'
/** Random trades of the differential case (`DIFF_GYRO_TRADES` for more), seed `DIFF_SEED`. */
const RANDOM_TRADES = Number(process.env.DIFF_GYRO_TRADES ?? 24)
const SEED = Number(process.env.DIFF_SEED ?? 2225)
const tokenAbi = parseAbi([
  'function mint(address, uint256)',
  'function approve(address, uint256) returns (bool)',
  'function allowance(address, address) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
])
const { GyroRateProvider } = loadStandInArtifacts({ protocol: 'gyro' })

const devnet = useDevnet()
let router: Address
let market: DeployGyroECLPMarketReturnType
let tokens: Record<string, { address: Address; decimals: number }>
let refs: PoolRef[]
let solver: Solver
const snapshots = new Map<string, PoolSnapshot>()

beforeAll(async () => {
  tokens = await deployMarketTestTokens({ devnet })
  router = await deployRouter({ devnet, weth: tokens.WETH.address })
  market = await deployGyroECLPMarket({ devnet, tokens })
  for (const { address } of Object.values(tokens)) {
    await write(address, tokenAbi, 'mint', [devnet.account, 10n ** 40n])
    await write(address, tokenAbi, 'approve', [router, maxUint256])
  }
  // Discovery as the market does it: the Vault's PoolRegistered logs, decoded by the adapter.
  const logs = await devnet.publicClient.getLogs({ address: market.vault, fromBlock: 0n, toBlock: 'latest' })
  refs = logs
    .filter((log) => gyroscopeEclp.discoveryTopics.includes(log.topics[0] as Hex))
    .map((log) => gyroscopeEclp.poolFromDiscoveryLog(log))
    .map((found) => ('ref' in found ? found.ref : assert.fail(`skipped ${JSON.stringify(found)}`)))
  solver = await loadSolver({ nativeToken: tokens.WETH.address })
}, 60_000)
afterAll(async () => {
  await solver?.close()
})

function write(address: Address, abi: readonly unknown[], functionName: string, args: readonly unknown[]) {
  return writeContractAndWait({ devnet, address, abi: abi as never, functionName, args })
}

const balance = (token: Address, owner: Address) =>
  devnet.publicClient.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [owner] })

/** Every pool read through the adapter at the latest block (or re-read for its rates alone), and given to the solver. */
async function readIntoSolver({ volatileOnly = false } = {}) {
  const block = await devnet.publicClient.getBlock()
  const at = {
    client: devnet.publicClient,
    blockNumber: block.number,
    nextBlock: { number: block.number + 1n, timestamp: block.timestamp + 2n },
  }
  for (const ref of refs) {
    const previous = snapshots.get(ref.id)
    const snapshot =
      volatileOnly && previous && gyroscopeEclp.readVolatile
        ? await gyroscopeEclp.readVolatile({ ...at, ref: previous.ref, previous })
        : await gyroscopeEclp.readPool({ ...at, ref })
    assert.equal(snapshot.refreshEveryBlock, true)
    snapshots.set(ref.id, snapshot)
  }
  await solver.upsertPools([...snapshots.values()].map((s) => s.input))
}

async function simulate(poolId: string, tokenIn: Address, amountIn: bigint): Promise<bigint> {
  return (await simulateWithGas(poolId, tokenIn, amountIn)).amountOut
}

async function simulateWithGas(poolId: string, tokenIn: Address, amountIn: bigint) {
  const { amountOut, gasUnits } = await solver.simulate({ poolId, tokenIn, amountIn: amountIn.toString() })
  return { amountOut: BigInt(amountOut), gasUnits }
}

/** The spec leg through `poolId` as the adapter encodes it, with `minOut`. */
function legThrough(poolId: string, tokenIn: Address, tokenOut: Address, minOut: bigint) {
  const snapshot = snapshots.get(poolId) as PoolSnapshot
  return routeLeg(tokenIn, tokenOut, gyroscopeEclp.encodeLeg(snapshot.ref), { minOut, poolId, dex: 'GYROSCOPE_ECLP' })
}

const planCall = (amountIn: bigint, legs: ReturnType<typeof routeLeg>[]): Hex =>
  encodeSwapExactIn({ plan: routePlan([{ amountIn, legs }]), recipient: RECIPIENT, deadline: FAR_DEADLINE }).data

const revert = (data: Hex) => routerRevert({ market: { devnet, router } as unknown as RouterMarket, data })

/** Sends router calldata, requires success; what RECIPIENT gained of `tokenOut`, and the gas. */
async function send(data: Hex, tokenOut: Address): Promise<{ paid: bigint; gasUsed: bigint }> {
  const before = await balance(tokenOut, RECIPIENT)
  const receipt = await sendAndWait({ devnet, to: router, data, gas: 5_000_000n, throwOnRevert: false })
  if (receipt.status !== 'success') throw new Error(`router call reverted: ${await revert(data)}`)
  return { paid: (await balance(tokenOut, RECIPIENT)) - before, gasUsed: receipt.gasUsed }
}

/** The router holds no token and has no allowance left to the Vault. */
async function assertRouterClean() {
  for (const { address } of Object.values(tokens)) {
    assert.equal(await balance(address, router), 0n, `router holds ${address}`)
    const allowance = await devnet.publicClient.readContract({
      address,
      abi: tokenAbi,
      functionName: 'allowance',
      args: [router, market.vault],
    })
    assert.equal(allowance, 0n, `router's allowance of ${address} to the Vault`)
  }
}

/** $5,000 or so of `token`, with an odd remainder. */
function sized(token: Address): bigint {
  const symbol = Object.entries(tokens).find(([, t]) => t.address === token)?.[0] as string
  const whole = ['USDC', 'USDbC'].includes(symbol) ? 5_000n : 2n
  return whole * 10n ** BigInt(tokens[symbol].decimals) + 123_457n
}

test('discovery: the Vault’s four E-CLPs, read at one block into gyro_eclp inputs the solver takes', async () => {
  assert.deepEqual(
    refs.map((r) => r.id),
    market.pools.map((p) => p.poolId.toLowerCase()),
  )
  await readIntoSolver()
  for (const { poolId, pool, tokens: pair } of market.pools) {
    const { ref, input } = snapshots.get(poolId.toLowerCase()) as PoolSnapshot
    assert.equal(ref.pool, pool.toLowerCase())
    assert.equal(ref.holder, market.vault.toLowerCase())
    assert.deepEqual(
      input.tokens,
      pair.map((t) => t.toLowerCase()),
    )
    assert.equal(input.state.model, 'gyro_eclp')
  }
})

test('every direction of every pool: the router pays exactly what the solver simulates; minOut is the Vault’s limit; gas within 15 % of the estimate', async () => {
  await readIntoSolver()
  const errors: string[] = []
  for (const { name, poolId, tokens: pair } of market.pools) {
    for (const [i, j] of [
      [0, 1],
      [1, 0],
    ]) {
      const amountIn = sized(pair[i])
      const { amountOut: expected, gasUnits } = await simulateWithGas(poolId, pair[i], amountIn)
      assert.ok(expected > 0n, `${name} ${i}→${j}: the solver pays nothing`)
      if (i === 0) {
        const tooMuch = legThrough(poolId, pair[i], pair[j], expected + 1n)
        assert.equal(await revert(planCall(amountIn, [tooMuch])), 'Error(BAL#507)', `${name}: one wei over the limit`)
      }
      const data = planCall(amountIn, [legThrough(poolId, pair[i], pair[j], expected)])
      const { paid, gasUsed } = await send(data, pair[j])
      assert.equal(paid, expected, `${name} ${i}→${j}: paid`)
      // The quote's estimate: the service's router overhead (docs/quote.md) plus the solver's leg.
      const estimate = estimateRouterOverheadGas({ data, routes: 1, legs: 1, nativeIn: false, nativeOut: false, paysIntegratorFee: false })
      const error = (estimate + gasUnits - Number(gasUsed)) / Number(gasUsed)
      errors.push(`${name} ${i}→${j}: used ${gasUsed}, leg ${Number(gasUsed) - estimate}, error ${(100 * error).toFixed(1)} %`)
      assert.ok(Math.abs(error) <= 0.15, errors[errors.length - 1])
      // The pool moved: read it again before its other direction.
      await readIntoSolver()
    }
  }
  console.log(`balancer_vault one-leg router calls (leg: gas used less the service's router overhead):\n${errors.join('\n')}`)
  await assertRouterClean()
})

test('random trades, 1 unit to half the input balance, either way on any pool: the router pays exactly what the solver simulates on the state the reader read', async () => {
  const prng = createPrng({ seed: SEED })
  let dust = 0
  let refused = 0
  for (let t = 0; t < RANDOM_TRADES; t++) {
    await readIntoSolver()
    const { name, poolId, tokens: pair } = prng.pick(market.pools)
    const i = prng.chance(0.5) ? 0 : 1
    const input = snapshots.get(poolId.toLowerCase())?.input.state
    assert.ok(input?.model === 'gyro_eclp')
    const amountIn = prng.logBigint(1n, BigInt(input.balances[i]) / 2n + 1n)
    const label = `${name} ${i}→${1 - i}: ${amountIn} in`
    const expected = await simulate(poolId, pair[i], amountIn).catch((error: Error) => error)
    // Past what the curve can take (its price range's end): the solver refuses, and the pool reverts.
    if (expected instanceof Error) {
      assert.match(expected.message, /insufficient liquidity/, label)
      await revert(planCall(amountIn, [legThrough(poolId, pair[i], pair[1 - i], 0n)]))
      refused++
      continue
    }
    const data = planCall(amountIn, [legThrough(poolId, pair[i], pair[1 - i], expected)])
    // A dust input the pool pays nothing for: the router refuses a leg that delivers nothing.
    if (expected === 0n) {
      assert.match(await revert(data), /^NothingDelivered/, label)
      dust++
      continue
    }
    const { paid } = await send(data, pair[1 - i])
    assert.equal(paid, expected, label)
  }
  console.log(
    `random E-CLP trades: ${RANDOM_TRADES - dust - refused} paid exactly, ${dust} dust refused by the router, ${refused} past the curve refused by both`,
  )
  assert.ok(dust + refused <= RANDOM_TRADES / 3, `${dust} dust and ${refused} refused of ${RANDOM_TRADES} trades`)
  await assertRouterClean()
})

test('a two-leg route USDC → WETH → wstETH through two E-CLPs pays exactly the solver’s chained amounts', async () => {
  await readIntoSolver()
  const wethUsdc = market.pools.find((p) => p.name === 'WETH/USDC')?.poolId as string
  const wstethWeth = market.pools.find((p) => p.name === 'wstETH/WETH')?.poolId as string
  const [usdc, weth, wsteth] = [tokens.USDC.address, tokens.WETH.address, tokens.wstETH.address]
  const amountIn = 12_345n * 10n ** 6n + 6_789n
  const mid = await simulate(wethUsdc, usdc, amountIn)
  const out = await simulate(wstethWeth, weth, mid)
  const legs = [legThrough(wethUsdc, usdc, weth, mid), legThrough(wstethWeth, weth, wsteth, out)]
  const { paid } = await send(planCall(amountIn, legs), wsteth)
  assert.equal(paid, out)
  await assertRouterClean()
})

test('a rate provider moved: the per-block re-read (readVolatile) takes the new rate and the router pays exactly the new amount', async () => {
  await readIntoSolver()
  const { poolId, tokens: pair } = market.pools.find((p) => p.name === 'cbETH/wstETH') as DeployGyroECLPMarketReturnType['pools'][0]
  const amountIn = sized(pair[0])
  const before = await simulate(poolId, pair[0], amountIn)
  await write(market.rateProviders.cbETH, GyroRateProvider.abi, 'setRate', [11_100n * 10n ** 14n])
  await readIntoSolver({ volatileOnly: true })
  const after = await simulate(poolId, pair[0], amountIn)
  assert.notEqual(after, before, 'the new rate changes the price')
  const { paid } = await send(planCall(amountIn, [legThrough(poolId, pair[0], pair[1], after)]), pair[1])
  assert.equal(paid, after)
})

test('malformed balancer_vault legs revert InvalidLegData(14); a pool id the Vault does not know reverts in the Vault', async () => {
  const { poolId, tokens: pair } = market.pools[0]
  const amountIn = sized(pair[0])
  const call = (data: Hex, pool: Address = market.vault) =>
    encodeFunctionData({
      abi: swapRouterAbi,
      functionName: 'swapExactIn',
      args: [rawSwapParams({ tokenIn: pair[0], tokenOut: pair[1], amountIn, recipient: RECIPIENT, leg: { kind: 14, pool, data } })],
    })
  assert.equal(await revert(call('0x')), 'InvalidLegData(14)')
  assert.equal(await revert(call(encodeAbiParameters([{ type: 'bytes32' }], [zeroHash]))), 'InvalidLegData(14)')
  assert.equal(await revert(call(`${poolId}00` as Hex)), 'InvalidLegData(14)')
  assert.equal(await revert(call(poolId, '0x0000000000000000000000000000000000000000')), 'InvalidLegData(14)')
  const unknown = `0x${'ab'.repeat(20)}000200000000000000000099` as Hex
  assert.equal(await revert(call(unknown)), 'Error(BAL#500)')
})

// A second leg through the same E-CLP in one transaction finds the Vault, the pool and the rate
// providers warm (EIP-2929) and the Vault's balance slot of the pool already written (EIP-2200): the
// registry's `gas_repeat_saving` (docs/gas-model.md, "Repeated legs"). Measured per pool as a
// split plan runs it: one route of one leg, against two such routes, from the same chain state.
test('a repeated leg through the same E-CLP saves what the registry says, within 5,000 gas on every pool', async () => {
  await readIntoSolver()
  const overhead = (data: Hex, routes: number) =>
    estimateRouterOverheadGas({ data, routes, legs: routes, nativeIn: false, nativeOut: false, paysIntegratorFee: false })
  const gasUsedOf = async (data: Hex, tokenOut: Address) => {
    const snapshot = await devnet.testClient.snapshot()
    const { gasUsed } = await send(data, tokenOut)
    await devnet.testClient.revert({ id: snapshot })
    return Number(gasUsed)
  }
  const rows: string[] = []
  const off: string[] = []
  for (const { name, poolId, tokens: pair } of market.pools) {
    const amountIn = sized(pair[0])
    const { repeatGasSaving } = await solver.simulate({ poolId, tokenIn: pair[0], amountIn: amountIn.toString() })
    const leg = legThrough(poolId, pair[0], pair[1], 0n)
    const once = planCall(amountIn, [leg])
    const twice = encodeSwapExactIn({
      plan: routePlan([
        { amountIn, legs: [leg] },
        { amountIn, legs: [leg] },
      ]),
      recipient: RECIPIENT,
      deadline: FAR_DEADLINE,
    }).data
    // The recipient holds the output token first (a live pool's usual case): its first payment, a
    // write from zero of some 14,000 gas more, would count as saved.
    await send(planCall(amountIn / 100n, [legThrough(poolId, pair[0], pair[1], 0n)]), pair[1])
    const cold = (await gasUsedOf(once, pair[1])) - overhead(once, 1)
    const warm = (await gasUsedOf(twice, pair[1])) - overhead(twice, 2) - cold
    rows.push(`${name}: cold ${cold}, repeated ${warm}, saving ${cold - warm}, registry ${repeatGasSaving}`)
    if (Math.abs(cold - warm - repeatGasSaving) > 5_000) off.push(rows[rows.length - 1])
  }
  console.log(`balancer_vault repeated legs:\n${rows.join('\n')}`)
  assert.deepEqual(off, [])
})
