import { type Address, parseAbi, parseEventLogs } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import { baseMarketTokens } from './seed/baseMarketTokens.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployMaverickV2MarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): WETH, USDC, USDbC, cbETH are used; `TestERC20`s with open mint. */
  tokens: Record<string, { address: Address; decimals: number }>
  /** Who owns the pools and pays their liquidity: an unlocked account holding the tokens; default: the devnet account, the tokens minted (open-mint test tokens only). */
  funder?: Address
}

export type MaverickV2MarketPool = {
  name: string
  pool: Address
  /** The pool's token A (the lower address, as Maverick's factory orders them) and token B. */
  tokenA: Address
  tokenB: Address
  tickSpacing: number
  activeTick: number
  /** The fees of each direction, D18 (A in, B in), and the protocol's share of them, thousandths. */
  feeAIn: bigint
  feeBIn: bigint
  protocolFeeRatioD3: number
}

export type DeployMaverickV2MarketReturnType = {
  /** Our `MaverickV2Factory`, which created the pools and announced each with the real factory's `PoolCreated`. */
  factory: Address
  pools: MaverickV2MarketPool[]
}

const tokenAbi = parseAbi(['function mint(address, uint256)', 'function approve(address, uint256) returns (bool)'])
const LN_TICK = Math.log(1.0001)

/**
 * Maverick V2 pools (our `MaverickV2Pool` stand-in, created by our `MaverickV2Factory`, which
 * announces each with the real factory's `PoolCreated`) over the embedded market's tokens, at the
 * market's prices, each in its own shape (the stand-in has no bin kinds: these are the shapes a
 * static, a concentrated and a one-sided position leave on the ticks):
 * - WETH/USDC: tick spacing 10 (0.1 % a tick), 0.05 % both ways, 21 ticks of $250k around the price;
 * - USDC/USDbC: spacing 1, directional fees (0.01 % one way, 0.02 % the other), a 10 % protocol
 *   share, 5 ticks of $1M (concentrated);
 * - cbETH/WETH: spacing 5, 0.03 % and 0.05 %, $400k on the price's tick and on the 10 ticks above
 *   it, none below (one-sided: a trade that pushes the price down finds nothing past the active tick).
 * Ticks below the active one hold token A only, above it token B only, the active one half of
 * each. The owner is the devnet account. Not part of the default seed: the solver does not price
 * MAVERICK_V2 yet (docs/dex-kinds.md), so the tests that need them deploy them.
 *
 * @example
 * const { pools } = await deployMaverickV2Market({ devnet, tokens: market.tokens })
 * pools.map((p) => p.name) // → ['WETH/USDC', 'USDC/USDbC', 'cbETH/WETH'], each with its tickSpacing, activeTick and fees
 */
export async function deployMaverickV2Market({
  devnet,
  tokens,
  funder,
}: DeployMaverickV2MarketParameters): Promise<DeployMaverickV2MarketReturnType> {
  const { MaverickV2Pool, MaverickV2Factory } = loadStandInArtifacts({ protocol: 'maverick' })
  const factory = await deployContractAndWait({ devnet, artifact: MaverickV2Factory })
  const owner = funder ?? devnet.account
  const usd = Object.fromEntries(baseMarketTokens.map((t) => [t.symbol, t.priceUsd])) as Record<string, number>
  // below/above: ticks on each side of the active one; tickUsd: the value on each tick.
  const specs = [
    {
      name: 'WETH/USDC',
      pair: ['WETH', 'USDC'],
      spacing: 10,
      fees: [5n * 10n ** 14n, 5n * 10n ** 14n],
      ratio: 0,
      below: 10,
      above: 10,
      tickUsd: 250_000,
    },
    {
      name: 'USDC/USDbC',
      pair: ['USDC', 'USDbC'],
      spacing: 1,
      fees: [10n ** 14n, 2n * 10n ** 14n],
      ratio: 100,
      below: 2,
      above: 2,
      tickUsd: 1_000_000,
    },
    {
      name: 'cbETH/WETH',
      pair: ['cbETH', 'WETH'],
      spacing: 5,
      fees: [3n * 10n ** 14n, 5n * 10n ** 14n],
      ratio: 0,
      below: 0,
      above: 10,
      tickUsd: 400_000,
    },
  ] as const
  const pools: MaverickV2MarketPool[] = []
  for (const spec of specs) {
    const [symA, symB] = [...spec.pair].sort((x, y) => (tokens[x].address.toLowerCase() < tokens[y].address.toLowerCase() ? -1 : 1))
    const [a, b] = [tokens[symA], tokens[symB]]
    // The price is token A per token B (whole tokens: the pool works on 18 decimals either way).
    const activeTick = Math.floor(Math.log(usd[symB] / usd[symA]) / LN_TICK / spec.spacing)
    const [feeAIn, feeBIn] = spec.pair[0] === symA ? spec.fees : [spec.fees[1], spec.fees[0]]
    const receipt = await writeContractAndWait({
      devnet,
      address: factory,
      abi: MaverickV2Factory.abi,
      functionName: 'create',
      args: [a.address, b.address, a.decimals, b.decimals, BigInt(spec.spacing), feeAIn, feeBIn, spec.ratio, activeTick],
      from: funder,
    })
    const [created] = parseEventLogs({ abi: MaverickV2Factory.abi, logs: receipt.logs }) as unknown as { args: { poolAddress: Address } }[]
    const pool = created.args.poolAddress
    // 18-decimal amounts worth `value` dollars (whole tokens, to a millionth, then to 18 decimals).
    const amm = (symbol: string, value: number) => BigInt(Math.round((value / usd[symbol]) * 1e6)) * 10n ** 12n
    const [ticks, ammA, ammB]: [number[], bigint[], bigint[]] = [[], [], []]
    for (let tick = activeTick - spec.below; tick <= activeTick + spec.above; tick++) {
      ticks.push(tick)
      ammA.push(tick < activeTick ? amm(symA, spec.tickUsd) : tick === activeTick ? amm(symA, spec.tickUsd / 2) : 0n)
      ammB.push(tick > activeTick ? amm(symB, spec.tickUsd) : tick === activeTick ? amm(symB, spec.tickUsd / 2) : 0n)
    }
    for (const [token, total] of [
      [a, ammA.reduce((s, x) => s + x, 0n)],
      [b, ammB.reduce((s, x) => s + x, 0n)],
    ] as const) {
      // Each tick's amount is rounded up on its own: at most one unit more a tick.
      const pay = total / 10n ** BigInt(18 - token.decimals) + BigInt(ticks.length)
      if (!funder) await writeContractAndWait({ devnet, address: token.address, abi: tokenAbi, functionName: 'mint', args: [owner, pay] })
      await writeContractAndWait({
        devnet,
        address: token.address,
        abi: tokenAbi,
        functionName: 'approve',
        args: [pool, pay],
        from: funder,
      })
    }
    await writeContractAndWait({
      devnet,
      address: pool,
      abi: MaverickV2Pool.abi,
      functionName: 'addTickLiquidity',
      args: [ticks, ammA, ammB],
      from: funder,
    })
    pools.push({
      name: spec.name,
      pool,
      tokenA: a.address,
      tokenB: b.address,
      tickSpacing: spec.spacing,
      activeTick,
      feeAIn,
      feeBIn,
      protocolFeeRatioD3: spec.ratio,
    })
  }
  return { factory, pools }
}
