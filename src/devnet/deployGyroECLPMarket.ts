import type { Address } from 'viem'
import { createGyroECLPPool } from './createGyroECLPPool.ts'
import { deployBalancerV2Vault } from './deployBalancerV2Vault.ts'
import { deployContractAndWait } from './deployContractAndWait.ts'
import { gyroEclpParams } from './gyroEclpParams.ts'
import { loadStandInArtifacts } from './loadStandInArtifacts.ts'
import type { Devnet } from './startDevnet.ts'

export type DeployGyroECLPMarketParameters = {
  devnet: Devnet
  /** The embedded market's tokens by symbol (`DevnetDescription.tokens`): WETH (the Vault's wrapped native), USDC, USDbC, cbETH, wstETH are used; `TestERC20`s with open mint. */
  tokens: Record<string, { address: Address; decimals: number }>
  /** Gives the devnet account a deposit's tokens (default: `mint`; the seed wraps ETH for its WETH9). */
  fund?: (token: Address, amount: bigint) => Promise<void>
}

export type GyroECLPMarketPool = { name: string; pool: Address; poolId: `0x${string}`; tokens: [Address, Address] }

export type DeployGyroECLPMarketReturnType = {
  vault: Address
  /** The settable rate providers of cbETH (1.1 ETH) and wstETH (1.1833 ETH). */
  rateProviders: { cbETH: Address; wstETH: Address }
  pools: GyroECLPMarketPool[]
}

type Spec = {
  name: string
  a: string
  b: string
  /** The range and peg of a in b, after rates (whole tokens). */
  alpha: string
  beta: string
  peg: string
  lambda: string
  swapFee: bigint
  /** Whole tokens of a and b deposited. */
  whole: [bigint, bigint]
}

/**
 * Balancer V2's own Vault with four E-CLP pools (our `GyroECLPPool` stand-in) over the embedded
 * market's tokens, about $5M a side: USDC/USDbC (0.997–1.003, λ 2000, 1 bp), WETH/USDC (2,500–3,600,
 * peg 3,000, λ 50, 5 bps), wstETH/WETH with a rate provider on wstETH (0.99–1.01 after the rate, λ
 * 500, 4 bps) and cbETH/wstETH with rate providers on both (0.98–1.02, λ 100, 4 bps). Part of the
 * default seed (`seedBaseMarket`); tests on a bare devnet deploy them with this.
 *
 * @example
 * const { vault, pools } = await deployGyroECLPMarket({ devnet, tokens: market.tokens })
 * pools.map((p) => p.name) // → ['USDC/USDbC', 'WETH/USDC', 'wstETH/WETH', 'cbETH/wstETH'], each with its Vault poolId
 */
export async function deployGyroECLPMarket({
  devnet,
  tokens,
  fund,
}: DeployGyroECLPMarketParameters): Promise<DeployGyroECLPMarketReturnType> {
  const { GyroRateProvider } = loadStandInArtifacts({ protocol: 'gyro' })
  const { vault } = await deployBalancerV2Vault({ devnet, weth: tokens.WETH.address })
  const rateProviders = {
    cbETH: await deployContractAndWait({ devnet, artifact: GyroRateProvider, args: [11n * 10n ** 17n] }),
    wstETH: await deployContractAndWait({ devnet, artifact: GyroRateProvider, args: [11833n * 10n ** 14n] }),
  }
  const specs: Spec[] = [
    {
      name: 'USDC/USDbC',
      a: 'USDC',
      b: 'USDbC',
      alpha: '0.997',
      beta: '1.003',
      peg: '1',
      lambda: '2000',
      swapFee: 10n ** 14n,
      whole: [5_000_000n, 5_000_000n],
    },
    {
      name: 'WETH/USDC',
      a: 'WETH',
      b: 'USDC',
      alpha: '2500',
      beta: '3600',
      peg: '3000',
      lambda: '50',
      swapFee: 5n * 10n ** 14n,
      whole: [1_667n, 5_000_000n],
    },
    {
      name: 'wstETH/WETH',
      a: 'wstETH',
      b: 'WETH',
      alpha: '0.99',
      beta: '1.01',
      peg: '1',
      lambda: '500',
      swapFee: 4n * 10n ** 14n,
      whole: [1_408n, 1_667n],
    },
    {
      name: 'cbETH/wstETH',
      a: 'cbETH',
      b: 'wstETH',
      alpha: '0.98',
      beta: '1.02',
      peg: '1',
      lambda: '100',
      swapFee: 4n * 10n ** 14n,
      whole: [1_515n, 1_408n],
    },
  ]
  const rateOf = (symbol: string): Address =>
    (rateProviders as Record<string, Address>)[symbol] ?? '0x0000000000000000000000000000000000000000'
  const pools: GyroECLPMarketPool[] = []
  for (const spec of specs) {
    const [a, b] = [tokens[spec.a], tokens[spec.b]]
    // Balancer's two-token pools take their tokens sorted; the range turns over with them.
    const flip = BigInt(a.address) > BigInt(b.address)
    const range = flip
      ? { alpha: inverse(spec.beta), beta: inverse(spec.alpha), peg: inverse(spec.peg), lambda: spec.lambda }
      : { alpha: spec.alpha, beta: spec.beta, peg: spec.peg, lambda: spec.lambda }
    const { params, derived } = gyroEclpParams(range)
    const ordered = flip ? ([b, a] as const) : ([a, b] as const)
    const symbols = flip ? [spec.b, spec.a] : [spec.a, spec.b]
    const whole = flip ? [spec.whole[1], spec.whole[0]] : spec.whole
    const { pool, poolId } = await createGyroECLPPool({
      devnet,
      vault,
      tokens: [ordered[0].address, ordered[1].address],
      rateProviders: [rateOf(symbols[0]), rateOf(symbols[1])],
      params,
      derived,
      swapFee: spec.swapFee,
      initialBalances: [whole[0] * 10n ** BigInt(ordered[0].decimals), whole[1] * 10n ** BigInt(ordered[1].decimals)],
      name: `Gyro E-CLP ${spec.name}`,
      fund,
    })
    pools.push({ name: spec.name, pool, poolId, tokens: [ordered[0].address, ordered[1].address] })
  }
  return { vault, rateProviders, pools }
}

/** 1/x for a decimal string, to 30 decimals (rounded down). */
function inverse(decimal: string): string {
  const [whole, fraction = ''] = decimal.split('.')
  const scaled = BigInt(whole + fraction)
  const q = 10n ** BigInt(30 + fraction.length) / scaled
  const digits = q.toString().padStart(31, '0')
  return `${digits.slice(0, -30)}.${digits.slice(-30)}`
}
