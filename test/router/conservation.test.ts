import assert from 'node:assert/strict'
import { beforeAll, test } from 'vitest'
import { type Address, getAddress, parseAbi, parseEventLogs, zeroAddress } from 'viem'
import { deployContractAndWait } from '../../src/devnet/deployContractAndWait.ts'
import { multicall3Address } from '../../src/chains/multicall3Address.ts'
import { sendAndWait } from '../../src/devnet/sendAndWait.ts'
import { useDevnet } from '../fixtures/useDevnet.ts'
import { writeContractAndWait } from '../../src/devnet/writeContractAndWait.ts'
import { encodeSwapExactIn } from '../../src/router/encodeSwapExactIn.ts'
import type { LegData, RouteLeg } from '../../src/router/routePlanTypes.ts'
import { swapRouterAbi } from '../../src/router/swapRouterAbi.ts'
import { createPrng, type Prng } from '../differential/createPrng.ts'
import { createRouterMarket, encodePoolKey, erc20Abi, type RouterMarket } from './createRouterMarket.ts'
import { aerodromeLeg, FAR_DEADLINE, infinityLeg, routeLeg, routePlan, v3Path } from './planBuilders.ts'
import { routerRevert } from './routerCall.ts'
import { holdingsOf, leaveStrayBalances, marketAssets, showHoldings, type Holdings } from './strayBalances.ts'

// Invariant test: random plans through real pools (every executable leg kind, legacy paths too)
// and an attacker's pool that reports more output than it pays, random stray balances left in the
// router before each trade, random integrator fees and native flags. After every trade, each asset is conserved across sender, recipient, fee recipient, the
// pools (the V4 PoolManager and the WETH contract included) and the router (ETH net of the gas
// burned), and the router holds exactly the stray balances it held before the trade.

const RUNS = Number(process.env.ROUTER_FUZZ_RUNS ?? 120)
const SEED = Number(process.env.ROUTER_FUZZ_SEED ?? 7177)
const RECIPIENT = getAddress('0x000000000000000000000000000000000000c0de')
const FEE_RECIPIENT = getAddress('0x000000000000000000000000000000000000fee0')
const ethBalanceAbi = parseAbi(['function getEthBalance(address) view returns (uint256)'])
const devnet = useDevnet()
let market: RouterMarket
/** An OverReportingPool for A/C holding plenty of both; reconfigured before every run. */
let liar: Address

beforeAll(async () => {
  market = await createRouterMarket({ devnet })
  // WETH for stray balances and WETH-in trades (the market's set-up left the account 1,000).
  await devnet.testClient.setBalance({ address: devnet.account, value: 10n ** 24n })
  await writeContractAndWait({ devnet, address: market.weth, abi: erc20Abi, functionName: 'deposit', value: 10n ** 23n })
  liar = getAddress(
    await deployContractAndWait({ devnet, artifact: devnet.artifacts.OverReportingPool, args: [market.tokens.a, market.tokens.c] }),
  )
  const poolFeesAbi = parseAbi(['function poolFees() view returns (address)'])
  for (const pool of [market.aerodrome.abStable, market.aerodrome.bcVolatile]) {
    aerodromePoolFees.push(await devnet.publicClient.readContract({ address: pool, abi: poolFeesAbi, functionName: 'poolFees' }))
  }
  for (const t of [market.tokens.a, market.tokens.c])
    await writeContractAndWait({ devnet, address: t, abi: erc20Abi, functionName: 'mint', args: [liar, 10n ** 25n] })
})

/** The PoolFees contracts of the Aerodrome pools (they receive the swap fees). */
const aerodromePoolFees: Address[] = []

/** One way to trade `from` → `to` in one leg. */
type LegOption = { from: Address; to: Address; data: LegData; poolId?: string }

/** Every executable leg between the market's tokens, both directions (the narrow pools left out: large trades stop at their price limit). */
function legOptions(): LegOption[] {
  const { a, b, c } = market.tokens
  const { weth, v2, v3, pancake, algebra, v4, aerodrome, slipstream, pancakeV2, infinity } = market
  const both = (x: Address, y: Address, data: (from: Address, to: Address) => LegData, poolId?: string): LegOption[] =>
    [
      [x, y],
      [y, x],
    ].map(([from, to]) => ({ from, to, data: data(from, to), poolId }))
  return [
    ...both(a, b, () => ({ kind: 'v2_direct', pool: v2.ab, feeBps: 30 })),
    ...both(b, c, () => ({ kind: 'v2_direct', pool: v2.bc, feeBps: 30 })),
    ...both(weth, a, () => ({ kind: 'v2_direct', pool: v2.wethA, feeBps: 30 })),
    ...both(a, b, () => ({ kind: 'v3_direct', pool: v3.ab3000 })),
    ...both(b, c, () => ({ kind: 'v3_direct', pool: v3.bc500 })),
    ...both(a, b, () => ({ kind: 'pancake_v3_direct', pool: pancake.ab2500 })),
    ...both(a, b, () => ({ kind: 'algebra_direct', pool: algebra.ab })),
    ...both(b, c, () => ({ kind: 'hydrex' }), algebra.bcPlugin),
    ...both(a, b, () => ({ kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(v4.ab)] })),
    ...both(weth, a, () => ({ kind: 'univ4', commands: '0x10', inputs: [encodePoolKey(v4.nativeA)] })),
    ...both(a, c, (from, to) => ({ kind: 'univ2', path: [from, b, to] })),
    ...both(weth, b, (from, to) => ({ kind: 'univ2', path: [from, a, to] })),
    ...both(b, c, (from, to) => ({ kind: 'univ2', path: [from, to] })),
    ...both(a, c, (from, to) => ({ kind: 'univ3', path: from === a ? v3Path([a, 3000, b, 500, c]) : v3Path([c, 500, b, 3000, a]) })),
    ...both(a, b, (from, to) => ({ kind: 'univ3', path: v3Path([from, 3000, to]) })),
    ...both(a, b, () => ({ kind: 'v2_direct', pool: pancakeV2.ab, feeBps: 25 })),
    ...both(a, b, (from, to) => aerodromeLeg(aerodrome.factory, [[from, to, true]])),
    ...both(b, c, (from, to) => aerodromeLeg(aerodrome.factory, [[from, to, false]])),
    ...both(a, c, (from, to) =>
      aerodromeLeg(
        aerodrome.factory,
        from === a
          ? [
              [a, b, true],
              [b, c, false],
            ]
          : [
              [c, b, false],
              [b, a, true],
            ],
      ),
    ),
    ...both(a, b, () => ({ kind: 'v3_direct', pool: slipstream.ab100 })),
    ...both(a, b, () => infinityLeg(infinity.ab)),
    ...both(weth, a, () => infinityLeg(infinity.nativeA)),
    ...both(a, c, () => ({ kind: 'v3_direct', pool: liar })),
    ...both(a, c, () => ({ kind: 'hydrex' }), liar),
  ]
}

/** Every chain of 1..3 legs from `from` to `to` that visits no token twice. */
function paths(options: LegOption[], from: Address, to: Address, visited: Address[] = [from]): LegOption[][] {
  if (visited.length > 3) return []
  return options
    .filter((o) => o.from === from && !visited.includes(o.to))
    .flatMap((o) => (o.to === to ? [[o]] : paths(options, o.to, to, [...visited, o.to]).map((rest) => [o, ...rest])))
}

/** Everyone whose balances the trade may move, besides the sender and the payees. */
function pools(): Address[] {
  const { v2, v3, pancake, algebra, v4, weth, aerodrome, slipstream, pancakeV2, infinity } = market
  return [
    v2.ab,
    v2.bc,
    v2.wethA,
    v3.ab3000,
    v3.bc500,
    pancake.ab2500,
    algebra.ab,
    algebra.bcPlugin,
    v4.poolManager,
    weth,
    liar,
    // Aerodrome pools move their swap fees out of their reserves to their PoolFees contracts.
    aerodrome.abStable,
    aerodrome.bcVolatile,
    ...aerodromePoolFees,
    slipstream.ab100,
    pancakeV2.ab,
    infinity.vault,
  ]
}

/**
 * What must be conserved, summed over `holders` (one multicall): A, B, C, and WETH together with
 * ETH (wrapping and unwrapping turn one into the other). The WETH contract's own ETH is the
 * backing of WETH, so it is not counted.
 */
async function totals(holders: Address[]): Promise<Record<string, bigint>> {
  const weth = getAddress(market.weth)
  const reads = marketAssets(market).flatMap((asset) =>
    holders.filter((h) => asset !== 'native' || getAddress(h) !== weth).map((holder) => ({ asset, holder })),
  )
  const contracts = reads.map(({ asset, holder }) =>
    asset === 'native'
      ? ({ address: multicall3Address, abi: ethBalanceAbi, functionName: 'getEthBalance', args: [holder] } as const)
      : ({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [holder] } as const),
  )
  const amounts = (await devnet.publicClient.multicall({ contracts, allowFailure: false })) as bigint[]
  const sums: Record<string, bigint> = {}
  reads.forEach(({ asset }, i) => {
    const key = asset === 'native' || asset === weth ? 'WETH+ETH' : asset
    sums[key] = (sums[key] ?? 0n) + amounts[i]
  })
  return sums
}

function randomStrays(prng: Prng): Holdings {
  const strays: Holdings = new Map()
  for (const asset of marketAssets(market)) {
    const max = asset === 'native' || asset === getAddress(market.weth) ? 10n ** 19n : 10n ** 22n
    if (prng.chance(0.6)) strays.set(asset, prng.logBigint(1n, max))
  }
  return strays
}

test(
  `random plans with stray balances in the router conserve every asset and leave the router exactly its strays (${RUNS} runs, seed ${SEED})`,
  { timeout: 900_000 },
  async () => {
    const prng = createPrng({ seed: SEED })
    const options = legOptions()
    const tokens = [market.tokens.a, market.tokens.b, market.tokens.c, market.weth]
    const holders = [devnet.account, RECIPIENT, FEE_RECIPIENT, market.router, ...pools()]
    const kinds = new Map<string, number>()
    for (let run = 0; run < RUNS; run++) {
      const tokenIn = prng.pick(tokens)
      const tokenOut = prng.pick(tokens.filter((t) => t !== tokenIn))
      const found = paths(options, tokenIn, tokenOut)
      const routes = Array.from({ length: prng.int(1, 3) }, () => ({
        amountIn: prng.logBigint(10n ** 9n, 10n ** 21n),
        legs: prng.pick(found).map((o): RouteLeg => routeLeg(o.from, o.to, o.data, { poolId: o.poolId })),
      }))
      const nativeIn = tokenIn === market.weth && prng.chance(0.5)
      const nativeOut = tokenOut === market.weth && prng.chance(0.5)
      const feeBps = prng.pick([0, 0, 1, 30, prng.int(0, 10_000), 9_999, 10_000])
      const plan = routePlan(routes, { nativeIn, nativeOut })
      const { data, value } = encodeSwapExactIn({
        plan,
        recipient: RECIPIENT,
        feeBps,
        feeRecipient: feeBps > 0 ? FEE_RECIPIENT : zeroAddress,
        deadline: FAR_DEADLINE,
      })
      const label = `run ${run} (seed ${SEED}): ${routes.map((r) => `${r.amountIn} via ${r.legs.map((l) => l.data.kind).join('>')}`).join(' | ')}; fee ${feeBps}, native ${nativeIn}/${nativeOut}`

      // The liar pays a little and claims up to far more than the router's stray balances.
      const delivered = prng.logBigint(10n ** 12n, 10n ** 18n)
      await writeContractAndWait({
        devnet,
        address: liar,
        abi: devnet.artifacts.OverReportingPool.abi,
        functionName: 'configure',
        args: [delivered, delivered + prng.logBigint(0n, 10n ** 23n)],
      })
      await leaveStrayBalances({ market, amounts: randomStrays(prng) })
      const routerBefore = await holdingsOf({ market, owner: market.router })
      const before = await totals(holders)
      const receipt = await sendAndWait({ devnet, to: market.router, data, value, gas: 8_000_000n, throwOnRevert: false })
      if (receipt.status !== 'success') assert.fail(`${label}: reverted ${await routerRevert({ market, data, value })}`)
      const after = await totals(holders)

      // ETH pays the gas: base fee burned, no priority fee (sendAndWait), so it leaves the holders.
      before['WETH+ETH'] -= receipt.gasUsed * receipt.effectiveGasPrice
      assert.deepEqual(after, before, `${label}: an asset was created or lost`)
      assert.deepEqual(
        showHoldings(await holdingsOf({ market, owner: market.router })),
        showHoldings(routerBefore),
        `${label}: the router's stray balances moved`,
      )
      const [swap] = parseEventLogs({ abi: swapRouterAbi, logs: receipt.logs, eventName: 'Swap' })
      assert.equal(
        swap.args.amountIn,
        plan.routes.reduce((s, r) => s + BigInt(r.amountIn), 0n),
        label,
      )
      assert.equal(swap.args.feeAmount, ((swap.args.amountOut + swap.args.feeAmount) * BigInt(feeBps)) / 10_000n, label)
      for (const leg of routes.flatMap((r) => r.legs)) kinds.set(leg.data.kind, (kinds.get(leg.data.kind) ?? 0) + 1)
      for (const [flag, on] of [
        ['native in', nativeIn],
        ['native out', nativeOut],
        ['fee at the cap', feeBps === 10_000],
      ] as const)
        if (on) kinds.set(flag, (kinds.get(flag) ?? 0) + 1)
    }
    console.log(`over ${RUNS} runs, legs by kind and trades by flag: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`)
    for (const kind of [
      'v2_direct',
      'v3_direct',
      'pancake_v3_direct',
      'algebra_direct',
      'hydrex',
      'univ4',
      'univ2',
      'univ3',
      'aerodrome_v2',
      'pancake_infinity_cl',
      'native in',
      'native out',
      'fee at the cap',
    ]) {
      assert.ok(kinds.has(kind), `no run had ${kind}: raise ROUTER_FUZZ_RUNS`)
    }
  },
)
