import { type Address, decodeEventLog, getAddress, parseAbi } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadCurveCryptoMathArtifact } from './loadCurveCryptoMathArtifact.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployCurveTricryptoMarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): USDC, cbBTC and WETH are used. */
  tokens: Record<string, { address: Address; decimals: number }>
  /** Gives the devnet account `amount` of `token` (default: the `TestERC20`'s open mint; the seed wraps ETH for its WETH9). */
  fund?: (token: Address, amount: bigint) => Promise<void>
}

/** One seeded tricrypto-ng pool: `coins` in the pool's order (its `coins(0)` to `coins(2)`). */
export type CurveTricryptoMarketPool = { name: string; pool: Address; coins: [Address, Address, Address]; template: 'tricrypto-ng' }

export type DeployCurveTricryptoMarketReturnType = {
  /** tricrypto-ng's math contract (`CurveCryptoMathOptimized3.vy`), which the pools call. */
  math: Address
  /** Our `CurveTricryptoFactory`: it announces each pool with tricrypto-ng's `TricryptoPoolDeployed`. */
  factory: Address
  pools: CurveTricryptoMarketPool[]
}

const tokenAbi = parseAbi(['function mint(address to, uint256 amount)', 'function approve(address spender, uint256 amount) returns (bool)'])

/**
 * The pool's parameters: A·N^N·10,000 = 1,707,629, gamma 1.18·10^-5, fees 0.03 % to 0.3 %, fee_gamma
 * 5·10^-4 (the order of Curve's USDC/WBTC/WETH tricrypto-ng pool's); the rebalancing three only reach
 * the event (our pools do not repeg, docs/dex-kinds.md).
 */
const PARAMS = {
  A: 1_707_629n,
  gamma: 11_809_167_828_997n,
  midFee: 3_000_000n,
  outFee: 30_000_000n,
  feeGamma: 500_000_000_000_000n,
  allowedExtraProfit: 2_000_000_000_000n,
  adjustmentStep: 490_000_000_000_000n,
  maExpTime: 866n,
}

/**
 * A Curve tricrypto-ng pool over the embedded market's USDC, cbBTC and WETH on our stand-in
 * (`contracts/curve/CurveTricryptoPool.sol`, deployed by `CurveTricryptoFactory`), calling tricrypto-ng's
 * own math contract (`loadCurveCryptoMathArtifact`, deployed here), funded by the devnet account
 * with $2M a coin at the market's prices (cbBTC $60,000, WETH $3,000), balanced. Part of the default seed (`seedBaseMarket`); the service follows it as a
 * configured pool and prices it from its own `get_dy` (docs/dex-kinds.md, CURVE).
 *
 * @example
 * const { math, factory, pools } = await deployCurveTricryptoMarket({ devnet, tokens: market.tokens })
 */
export async function deployCurveTricryptoMarket({
  devnet,
  tokens,
  fund = async (token, amount) => {
    await writeContractAndWait({ devnet, address: token, abi: tokenAbi, functionName: 'mint', args: [devnet.account, amount] })
  },
}: DeployCurveTricryptoMarketParameters): Promise<DeployCurveTricryptoMarketReturnType> {
  const { CurveTricryptoFactory, CurveTricryptoPool } = loadStandInArtifacts({ protocol: 'curve' })
  const math = await deployContractAndWait({ devnet, artifact: await loadCurveCryptoMathArtifact() })
  const factory = await deployContractAndWait({ devnet, artifact: CurveTricryptoFactory, args: [devnet.account, math] })
  const symbols = ['USDC', 'cbBTC', 'WETH'] as const
  const coins = symbols.map((symbol) => tokens[symbol])
  // Coins 1 and 2 priced in coin 0 (whole units, 10^18), and $2M of each coin at those prices (balanced).
  const prices = [60_000n * 10n ** 18n, 3_000n * 10n ** 18n]
  const usd = [1n, 60_000n, 3_000n]
  const name = symbols.join('/')
  const receipt = await writeContractAndWait({
    devnet,
    address: factory,
    abi: CurveTricryptoFactory.abi,
    functionName: 'deploy_pool',
    args: [
      `Curve.fi ${name}`,
      `crv${symbols.join('')}`,
      coins.map((coin) => coin.address),
      tokens.WETH.address,
      0n,
      PARAMS.A,
      PARAMS.gamma,
      PARAMS.midFee,
      PARAMS.outFee,
      PARAMS.feeGamma,
      PARAMS.allowedExtraProfit,
      PARAMS.adjustmentStep,
      PARAMS.maExpTime,
      prices,
    ],
  })
  const announced = receipt.logs
    .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
    .map((log) => decodeEventLog({ abi: CurveTricryptoFactory.abi, data: log.data, topics: log.topics }))
    .find((event) => event.eventName === 'TricryptoPoolDeployed')
  if (!announced) throw new Error(`CurveTricryptoFactory announced no pool for ${name}`)
  const pool = getAddress((announced.args as unknown as { pool: Address }).pool)
  const amounts = coins.map((coin, k) => (2_000_000n * 10n ** BigInt(coin.decimals)) / usd[k])
  for (const [k, coin] of coins.entries()) {
    await fund(coin.address, amounts[k])
    await writeContractAndWait({ devnet, address: coin.address, abi: tokenAbi, functionName: 'approve', args: [pool, amounts[k]] })
  }
  await writeContractAndWait({ devnet, address: pool, abi: CurveTricryptoPool.abi, functionName: 'add_liquidity', args: [amounts, 0n] })
  const [coin0, coin1, coin2] = coins.map((coin) => getAddress(coin.address))
  return { math, factory, pools: [{ name, pool, coins: [coin0, coin1, coin2], template: 'tricrypto-ng' }] }
}
