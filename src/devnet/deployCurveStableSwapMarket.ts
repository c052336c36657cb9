import type { Address } from 'viem'
import { createCurveMetaPool } from './createCurveMetaPool.ts'
import { createCurvePlainPool } from './createCurvePlainPool.ts'
import { type CurveCoin, createCurveStableSwapPool } from './createCurveStableSwapPool.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { deployCurveStableSwap } from './deployCurveStableSwap.ts'
import { loadCurveStableSwapNgArtifact } from './loadCurveStableSwapNgArtifact.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'
import { writeContractAndWait } from './writeContractAndWait.ts'

export type DeployCurveStableSwapMarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): USDC, USDbC, DAI, cbETH, wstETH are used; `TestERC20`s with open mint. */
  tokens: Record<string, { address: Address; decimals: number }>
}

/** `template`: `ng` (Curve's own NG pool, created through the factory), `legacy` (our plain-pool stand-in) or `meta`. */
export type CurveMarketPool = { name: string; pool: Address; coins: Address[]; template: 'ng' | 'legacy' | 'meta' }

export type DeployCurveStableSwapMarketReturnType = {
  factory: Address
  views: Address
  /** The ERC-4626 vault over DAI (`CurveRateVault`, 1.08 DAI a share) that the sDAI pools hold. */
  sDai: Address
  /** The rate oracles of cbETH (1.1) and wstETH (1.1833), settable. */
  oracles: { cbETH: Address; wstETH: Address }
  pools: CurveMarketPool[]
}

/**
 * Curve StableSwap-NG pools over the embedded market's tokens, funded by the devnet account with
 * about $5M a coin: USDC/USDbC (A 200), USDC/USDbC/DAI (A 500), USDC/sDAI with an ERC-4626 coin,
 * USDC/USDbC/DAI/sDAI, and cbETH/wstETH with two oracle-rated coins; and USDbC/DAI on the legacy
 * plain-pool template (`createCurvePlainPool`) with a USDC meta pool over it (`createCurveMetaPool`).
 * Part of the default seed (`seedBaseMarket`); the service follows the NG pools from the factory and
 * the legacy pool as a configured pool, and the meta pool when asked (`devnetChainConfig`'s
 * `curveMetaPools`: its venue holds the legacy pool's state, so the solver then refuses the legacy
 * pool as a venue of its own; off by default, its bound being loose: docs/dex-kinds.md, CURVE).
 *
 * @example
 * const { pools } = await deployCurveStableSwapMarket({ devnet, tokens: market.tokens })
 */
export async function deployCurveStableSwapMarket({
  devnet,
  tokens,
}: DeployCurveStableSwapMarketParameters): Promise<DeployCurveStableSwapMarketReturnType> {
  const { CurveMetaPool, CurveRateOracle, CurveRateVault } = loadStandInArtifacts({ protocol: 'curve' })
  const { factory, views } = await deployCurveStableSwap({ devnet })
  const sDai = await deployContractAndWait({
    devnet,
    artifact: CurveRateVault,
    args: ['Savings DAI', 'sDAI', tokens.DAI.address, 108n * 10n ** 16n],
  })
  const oracles = {
    cbETH: await deployContractAndWait({ devnet, artifact: CurveRateOracle, args: [11n * 10n ** 17n] }),
    wstETH: await deployContractAndWait({ devnet, artifact: CurveRateOracle, args: [11833n * 10n ** 14n] }),
  }
  const plain = (symbol: string): CurveCoin => ({ ...tokens[symbol], kind: 'plain' })
  const sDaiCoin: CurveCoin = { address: sDai, decimals: 18, kind: 'erc4626' }
  const specs: { name: string; coins: CurveCoin[]; A: bigint; fee: bigint; whole: bigint[] }[] = [
    { name: 'USDC/USDbC', coins: [plain('USDC'), plain('USDbC')], A: 200n, fee: 1_000_000n, whole: [5_000_000n, 5_000_000n] },
    {
      name: 'USDC/USDbC/DAI',
      coins: [plain('USDC'), plain('USDbC'), plain('DAI')],
      A: 500n,
      fee: 1_000_000n,
      whole: [5_000_000n, 5_000_000n, 5_000_000n],
    },
    { name: 'USDC/sDAI', coins: [plain('USDC'), sDaiCoin], A: 200n, fee: 2_000_000n, whole: [5_000_000n, 4_629_000n] },
    {
      name: 'USDC/USDbC/DAI/sDAI',
      coins: [plain('USDC'), plain('USDbC'), plain('DAI'), sDaiCoin],
      A: 1000n,
      fee: 1_000_000n,
      whole: [5_000_000n, 5_000_000n, 5_000_000n, 4_629_000n],
    },
    {
      name: 'cbETH/wstETH',
      coins: [
        { ...tokens.cbETH, kind: 'oracle', oracle: oracles.cbETH },
        { ...tokens.wstETH, kind: 'oracle', oracle: oracles.wstETH },
      ],
      A: 100n,
      fee: 4_000_000n,
      whole: [1_515n, 1_408n],
    },
  ]
  const ng = await loadCurveStableSwapNgArtifact()
  const pools: CurveMarketPool[] = []
  for (const spec of specs) {
    const { pool } = await createCurveStableSwapPool({
      devnet,
      factory,
      coins: spec.coins,
      A: spec.A,
      fee: spec.fee,
      offpegFeeMultiplier: 20_000_000_000n,
      name: spec.name,
    })
    // Whole coins worth about $5M each at the market's prices (sDAI: 1.08 DAI; cbETH $3,300, wstETH $3,550).
    const amounts = spec.coins.map((coin, k) => spec.whole[k] * 10n ** BigInt(coin.decimals))
    await fund(
      pool,
      spec.coins.map((c) => c.address),
      amounts,
    )
    await writeContractAndWait({ devnet, address: pool, abi: ng.abi, functionName: 'add_liquidity', args: [amounts, 0n] })
    pools.push({ name: spec.name, pool, coins: spec.coins.map((c) => c.address), template: 'ng' })
  }
  // The legacy template (our stand-in of the pre-NG factory's plain pool): USDbC/DAI, A 100, 4 bps.
  const legacyCoins = [tokens.USDbC, tokens.DAI]
  const { pool: legacy } = await createCurvePlainPool({ devnet, factory, coins: legacyCoins, A: 100n, fee: 4_000_000n })
  const legacyAmounts = legacyCoins.map((coin) => 5_000_000n * 10n ** BigInt(coin.decimals))
  await fund(
    legacy,
    legacyCoins.map((c) => c.address),
    legacyAmounts,
  )
  await writeContractAndWait({
    devnet,
    address: legacy,
    abi: loadStandInArtifacts({ protocol: 'curve' }).CurvePlainPool.abi,
    functionName: 'add_liquidity',
    args: [legacyAmounts, 0n],
  })
  pools.push({ name: 'USDbC/DAI (legacy)', pool: legacy, coins: legacyCoins.map((c) => c.address), template: 'legacy' })
  // A meta pool on it: USDC against its LP token (half of what the deposit minted), A 200, 4 bps, on
  // the pre-factory template (the base pool's virtual price cached for 600 s);
  // `exchange_underlying` trades USDC against USDbC and DAI through the base pool.
  const { pool: meta } = await createCurveMetaPool({
    devnet,
    factory,
    coin: tokens.USDC,
    basePool: legacy,
    A: 200n,
    fee: 4_000_000n,
    cachesBaseVirtualPrice: true,
  })
  const lp = (await devnet.publicClient.readContract({
    address: legacy,
    abi: CurveMetaPool.abi,
    functionName: 'balanceOf',
    args: [devnet.account],
  })) as bigint
  const metaAmounts = [5_000_000n * 10n ** BigInt(tokens.USDC.decimals), lp / 2n]
  await fund(meta, [tokens.USDC.address], [metaAmounts[0]])
  await writeContractAndWait({ devnet, address: legacy, abi: CurveMetaPool.abi, functionName: 'approve', args: [meta, metaAmounts[1]] })
  await writeContractAndWait({ devnet, address: meta, abi: CurveMetaPool.abi, functionName: 'add_liquidity', args: [metaAmounts, 0n] })
  pools.push({ name: 'USDC/[USDbC/DAI] (meta)', pool: meta, coins: [tokens.USDC.address, legacy], template: 'meta' })
  return { factory, views, sDai, oracles, pools }

  async function fund(pool: Address, coins: Address[], amounts: bigint[]) {
    for (const [k, coin] of coins.entries()) {
      const abi = CurveRateVault.abi
      await writeContractAndWait({ devnet, address: coin, abi, functionName: 'mint', args: [devnet.account, amounts[k]] })
      await writeContractAndWait({ devnet, address: coin, abi, functionName: 'approve', args: [pool, amounts[k]] })
    }
  }
}
