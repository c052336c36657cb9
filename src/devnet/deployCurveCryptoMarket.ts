import { type Address, decodeEventLog, getAddress, parseAbi } from 'viem'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployCurveCryptoMarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): USDC, cbBTC, AERO, cbETH and DEGEN are used; `TestERC20`s with open mint. */
  tokens: Record<string, { address: Address; decimals: number }>
}

/** One seeded CryptoSwap pool: `coins` in the pool's order (its `coins(0)`, `coins(1)`). */
export type CurveCryptoMarketPool = { name: string; pool: Address; coins: [Address, Address]; template: 'twocrypto-ng' }

export type DeployCurveCryptoMarketReturnType = {
  /** Our `CurveTwocryptoFactory`: it announces each pool with twocrypto-ng's `TwocryptoPoolDeployed`. */
  factory: Address
  pools: CurveCryptoMarketPool[]
}

const tokenAbi = parseAbi(['function mint(address to, uint256 amount)', 'function approve(address spender, uint256 amount) returns (bool)'])

/**
 * twocrypto-ng's common parameters for volatile pairs (A·N^N·10,000 = 400,000, gamma 1.45e-4,
 * fees 0.26 % to 0.45 %, fee_gamma 2.3e-4; the rebalancing three only reach the event: our pools
 * do not repeg, docs/dex-kinds.md).
 */
const PARAMS = {
  A: 400_000n,
  gamma: 145_000_000_000_000n,
  midFee: 26_000_000n,
  outFee: 45_000_000n,
  feeGamma: 230_000_000_000_000n,
  allowedExtraProfit: 2_000_000_000_000n,
  adjustmentStep: 146_000_000_000_000n,
  maExpTime: 866n,
}

/**
 * Curve twocrypto-ng pools over the embedded market's tokens, on our stand-in
 * (`contracts/curve/CurveTwocryptoPool.sol`, deployed by `CurveTwocryptoFactory`), each funded by the
 * devnet account with about $2M a coin at the market's prices: USDC/cbBTC, USDC/AERO and
 * cbETH/DEGEN. Part of the default seed (`seedBaseMarket`); the service discovers them from the
 * factory's `TwocryptoPoolDeployed` and prices them from their own `get_dy` (docs/dex-kinds.md, CURVE).
 *
 * @example
 * const { factory, pools } = await deployCurveCryptoMarket({ devnet, tokens: market.tokens })
 */
export async function deployCurveCryptoMarket({
  devnet,
  tokens,
}: DeployCurveCryptoMarketParameters): Promise<DeployCurveCryptoMarketReturnType> {
  const { CurveTwocryptoFactory, CurveTwocryptoPool } = loadStandInArtifacts({ protocol: 'curve' })
  const factory = await deployContractAndWait({ devnet, artifact: CurveTwocryptoFactory, args: [devnet.account] })
  // Coin 1's price in coin 0 (whole units, 10^18), and whole coins of about $2M each.
  const specs: { coins: [string, string]; price: bigint; whole: [bigint, bigint] }[] = [
    { coins: ['USDC', 'cbBTC'], price: 60_000n * 10n ** 18n, whole: [2_000_000n, 33n] },
    { coins: ['USDC', 'AERO'], price: 12n * 10n ** 17n, whole: [2_000_000n, 1_666_666n] },
    { coins: ['cbETH', 'DEGEN'], price: (10n ** 18n * 1n) / 330_000n, whole: [606n, 200_000_000n] },
  ]
  const pools: CurveCryptoMarketPool[] = []
  for (const spec of specs) {
    const [coin0, coin1] = spec.coins.map((symbol) => tokens[symbol])
    const name = spec.coins.join('/')
    const receipt = await writeContractAndWait({
      devnet,
      address: factory,
      abi: CurveTwocryptoFactory.abi,
      functionName: 'deploy_pool',
      args: [
        `Curve.fi ${name}`,
        `crv${spec.coins.join('')}`,
        [coin0.address, coin1.address],
        0n,
        PARAMS.A,
        PARAMS.gamma,
        PARAMS.midFee,
        PARAMS.outFee,
        PARAMS.feeGamma,
        PARAMS.allowedExtraProfit,
        PARAMS.adjustmentStep,
        PARAMS.maExpTime,
        spec.price,
      ],
    })
    const announced = receipt.logs
      .filter((log) => log.address.toLowerCase() === factory.toLowerCase())
      .map((log) => decodeEventLog({ abi: CurveTwocryptoFactory.abi, data: log.data, topics: log.topics }))
      .find((event) => event.eventName === 'TwocryptoPoolDeployed')
    if (!announced) throw new Error(`CurveTwocryptoFactory announced no pool for ${name}`)
    const pool = getAddress((announced.args as unknown as { pool: Address }).pool)
    const amounts = [coin0, coin1].map((coin, k) => spec.whole[k] * 10n ** BigInt(coin.decimals))
    for (const [k, coin] of [coin0, coin1].entries()) {
      await writeContractAndWait({ devnet, address: coin.address, abi: tokenAbi, functionName: 'mint', args: [devnet.account, amounts[k]] })
      await writeContractAndWait({ devnet, address: coin.address, abi: tokenAbi, functionName: 'approve', args: [pool, amounts[k]] })
    }
    await writeContractAndWait({ devnet, address: pool, abi: CurveTwocryptoPool.abi, functionName: 'add_liquidity', args: [amounts, 0n] })
    pools.push({ name, pool, coins: [coin0.address, coin1.address], template: 'twocrypto-ng' })
  }
  return { factory, pools }
}
